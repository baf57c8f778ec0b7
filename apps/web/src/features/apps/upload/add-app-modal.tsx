// The add-app modal of spec §2/§4: choose the organization and a build, watch it upload, then
// confirm the draft with Add.
import { Anchor, Button, Group, Modal, SegmentedControl, Select, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { Alert } from "../../../ui/alert.tsx";
import { withWayOut } from "../../../ui/limit-way-out.ts";
import { UploadProgress } from "../../../ui/upload-progress.tsx";
import { SendDialog } from "../distribution/send-dialog.tsx";
import { DraftForm } from "./draft-form.tsx";
import { DropZone } from "./drop-zone.tsx";
import { SharePanel } from "./share-panel.tsx";
import { messageText, statusText } from "./status-text.ts";
import { useUploadFlow } from "./upload-context.tsx";
import { isSending } from "./use-preload.ts";
import { ZipPlatformNote } from "./zip-platform-note.tsx";

export function AddAppModal() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const flow = useUploadFlow();
  const { preload, app, shared } = flow;
  // The send dialog takes the screen; the share panel comes back when it closes.
  const [sendingToTesters, setSendingToTesters] = useState(false);
  const sending = isSending(preload.phase);
  const busy = sending || flow.saving;
  const failure = flow.saveError ?? preload.error;
  const error = messageText(failure, t, flow.limitWayOut);
  const status = statusText(preload, t, flow.processing);
  const title = app
    ? t("upload.new_version_title", { title: app.title })
    : flow.projectOf
      ? t("upload.add_to_project_title", { title: flow.projectOf.project_title })
      : t("upload.add_title");

  if (shared && sendingToTesters) {
    return (
      <SendDialog
        appId={shared.app.id}
        versionId={shared.app.current_version?.id ?? null}
        whatsNew={shared.app.current_version?.whats_new}
        onClose={() => setSendingToTesters(false)}
      />
    );
  }

  return (
    <Modal
      opened={flow.opened}
      onClose={flow.close}
      title={title}
      size="lg"
      transitionProps={{ duration: 300 }}
      overlayProps={{ transitionProps: { duration: 150 } }}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      {shared ? (
        <SharePanel
          appId={shared.app.id}
          title={shared.app.title}
          warnings={shared.warnings}
          onSendToTesters={() => setSendingToTesters(true)}
          onGoToVersions={() => {
            flow.close();
            navigate(`/dashboard/apps/${shared.app.id}`);
          }}
          onDone={flow.close}
        />
      ) : (
        <Stack gap="md">
          {app ? null : (
            <Select
              label={t("upload.organization")}
              data={flow.organizations}
              value={flow.organization === null ? null : String(flow.organization)}
              onChange={(value) => flow.setOrganization(value ? Number(value) : null)}
              disabled={busy || preload.phase === "done"}
              clearable
              allowDeselect
            />
          )}
          {app || preload.phase === "done" ? null : (
            <Stack gap={4}>
              <Text fz="sm" fw={500} id="zip-platform-label">
                {t("upload.zip_platform")}
              </Text>
              <SegmentedControl
                aria-labelledby="zip-platform-label"
                value={String(flow.zipType)}
                onChange={(value) => flow.setZipType(value === "3" ? 3 : 2)}
                disabled={busy}
                data={[
                  { value: "2", label: t("platforms.windows") },
                  { value: "3", label: t("platforms.macos") },
                ]}
              />
            </Stack>
          )}
          {!app && !flow.projectOf && flow.projectLimitReached && preload.phase === "idle" ? (
            <Alert
              type="info"
              message={withWayOut(t("upload.project_limit_note"), flow.limitWayOut)}
              timeout={0}
              dismissible={false}
            />
          ) : null}
          {preload.phase === "done" ? null : <DropZone disabled={busy} onFiles={flow.pickFiles} />}
          {preload.phase !== "idle" || error ? (
            <UploadProgress
              progress={preload.progress}
              fileName={preload.fileName}
              status={status}
              error={error}
            />
          ) : null}
          {failure?.plan ? (
            <Anchor component={Link} to="/dashboard/organization/plan" onClick={flow.close} fz="sm">
              {t("upload.see_plan")}
            </Anchor>
          ) : null}
          {preload.phase === "done" && preload.result ? (
            <ZipPlatformNote
              fileName={preload.result.file_name}
              found={preload.result.app_type}
              chosen={app?.app_type ?? flow.zipType}
              forExistingApp={app !== null}
            />
          ) : null}
          {preload.phase === "done" && preload.result ? (
            <DraftForm
              draft={flow.draft}
              result={preload.result}
              existingApp={app !== null}
              projectLocked={flow.projectOf !== null}
              disabled={flow.saving}
              onChange={flow.editDraft}
            />
          ) : null}
          <Group justify="flex-end" gap="sm">
            {sending || flow.saving ? (
              <Button variant="default" onClick={flow.cancel}>
                {t("upload.cancel_upload")}
              </Button>
            ) : (
              <Button variant="default" onClick={flow.close}>
                {t("common.cancel")}
              </Button>
            )}
            {preload.phase === "done" ? (
              <Button onClick={flow.save} loading={flow.saving} disabled={!flow.canSave}>
                {t("upload.add")}
              </Button>
            ) : null}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The widget in a page corner while an upload continues with the modal closed. */
export function BackgroundUpload() {
  const { t } = useTranslation();
  const flow = useUploadFlow();
  if (!flow.inBackground) return null;
  const { preload } = flow;
  return (
    <UploadProgress
      floating
      progress={preload.progress}
      fileName={preload.fileName}
      status={statusText(preload, t)}
      error={messageText(preload.error, t, flow.limitWayOut)}
      onOpenAdd={() => flow.open(flow.app)}
      onCancel={flow.cancel}
    />
  );
}
