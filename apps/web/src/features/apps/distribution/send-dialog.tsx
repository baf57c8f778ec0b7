// "Send to testers": choose the builds per platform and the recipients, preview the mail, send.
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  fetchRecipients,
  previewTesterMail,
  sendToTesters,
  type TesterMailPreview,
  type TesterRecipients,
  testerKeys,
} from "../../../api/testers.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { formatDateTime } from "../../../ui/format/date.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageLoader } from "../../../ui/page-loader.tsx";
import {
  buildSendPayload,
  initialSendForm,
  recipientCount,
  type SendForm as SendFormState,
} from "./send-payload.ts";
import { RecipientPicker } from "./send-recipients.tsx";

const PLATFORM_KEYS = ["platforms.android", "platforms.ios", "platforms.windows", "platforms.macos"];

interface SendDialogProps {
  appId: number;
  /** The version the dialog was opened for, preselected for its platform. */
  versionId: number | null;
  whatsNew?: string;
  onClose: () => void;
}

export function SendDialog({ appId, versionId, whatsNew, onClose }: SendDialogProps) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: testerKeys.recipients(appId, versionId),
    queryFn: () => fetchRecipients(appId, versionId),
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t("send.title")}
      size="lg"
      fullScreen={typeof window !== "undefined" && window.innerWidth < 576}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      {query.isPending ? <PageLoader /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <SendPicker appId={appId} data={query.data} whatsNew={whatsNew} onClose={onClose} />
      ) : null}
    </Modal>
  );
}

interface SendFormProps {
  appId: number;
  data: TesterRecipients;
  whatsNew?: string;
  onClose: () => void;
}

function SendPicker({ appId, data, whatsNew, onClose }: SendFormProps) {
  const { t, i18n } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SendFormState>(() => initialSendForm(data, whatsNew));
  const [preview, setPreview] = useState<TesterMailPreview | null>(null);
  const payload = buildSendPayload(data, form);
  const change = (next: SendFormState) => {
    setForm(next);
    setPreview(null);
  };
  const previewMail = useMutation({
    mutationFn: () => previewTesterMail(appId, payload),
    onSuccess: setPreview,
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const send = useMutation({
    mutationFn: () => sendToTesters(appId, payload),
    onSuccess: (result) => {
      alerts.show({ type: "success", message: t("send.sent", { count: result.recipients }) });
      void queryClient.invalidateQueries({ queryKey: testerKeys.all(appId) });
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const count = recipientCount(form);
  const platformsChosen = (payload.app2os ?? []).length > 0;
  return (
    <Stack gap="md">
      <Stack gap="xs">
        <Text fw={600}>{t("send.builds")}</Text>
        {data.platforms.map((platform) => {
          const choice = form.platforms[platform.app] ?? { include: false, version: "" };
          const name = t(PLATFORM_KEYS[platform.app_type] ?? "platforms.android");
          return (
            <Group key={platform.app} gap="sm" wrap="wrap" align="center">
              <Checkbox
                label={name}
                checked={choice.include}
                disabled={platform.versions.length === 0}
                onChange={(event) =>
                  change({
                    ...form,
                    platforms: {
                      ...form.platforms,
                      [platform.app]: { ...choice, include: event.currentTarget.checked },
                    },
                  })
                }
                w={110}
              />
              <Select
                aria-label={t("send.version_of", { platform: name })}
                data={[
                  { value: "", label: t("send.newest") },
                  ...platform.versions.map((version) => ({
                    value: String(version.id),
                    label: `${t("apps.version_build", { version: version.version, build: version.build_version_number })} · ${formatDateTime(version.date, i18n.language)}`,
                  })),
                ]}
                value={choice.version}
                disabled={!choice.include}
                allowDeselect={false}
                onChange={(value) =>
                  change({
                    ...form,
                    platforms: { ...form.platforms, [platform.app]: { ...choice, version: value ?? "" } },
                  })
                }
                style={{ flex: "1 1 220px" }}
              />
            </Group>
          );
        })}
      </Stack>
      <Stack gap="xs">
        <Text fw={600}>{t("send.recipients", { count })}</Text>
        <RecipientPicker data={data} form={form} onChange={change} />
      </Stack>
      <Textarea
        label={t("apps.whats_new")}
        rows={3}
        maxLength={5000}
        value={form.whatsNew}
        onChange={(event) => change({ ...form, whatsNew: event.currentTarget.value })}
      />
      <Switch
        label={t("send.tutorial")}
        checked={form.tutorial}
        onChange={(event) => change({ ...form, tutorial: event.currentTarget.checked })}
      />
      {preview ? <MailPreview preview={preview} /> : null}
      {count === 0 ? <Alert color="gray">{t("send.pick_recipients")}</Alert> : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {t("common.cancel")}
        </Button>
        <Button
          variant="light"
          loading={previewMail.isPending}
          disabled={!platformsChosen}
          onClick={() => previewMail.mutate()}
        >
          {t("send.preview")}
        </Button>
        <Button
          loading={send.isPending}
          disabled={count === 0 || !platformsChosen}
          onClick={() => send.mutate()}
        >
          {t("send.send", { count })}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The mail as the recipients will get it: the server answers the very HTML and text it sends.
 * The HTML runs in a sandbox with no scripts; the plain text is what mail clients without HTML show.
 */
function MailPreview({ preview }: { preview: TesterMailPreview }) {
  const { t } = useTranslation();
  const [part, setPart] = useState<"html" | "text">("html");
  return (
    <Stack gap="xs" component="section" aria-label={t("send.preview_title")}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text fw={600}>{t("send.subject", { subject: preview.subject })}</Text>
        <SegmentedControl
          size="xs"
          value={part}
          onChange={(value) => setPart(value === "text" ? "text" : "html")}
          data={[
            { value: "html", label: t("send.preview_html") },
            { value: "text", label: t("send.preview_text") },
          ]}
        />
      </Group>
      {part === "html" ? (
        <Box
          component="iframe"
          title={t("send.preview_title")}
          sandbox=""
          srcDoc={preview.html}
          w="100%"
          h={420}
          style={{ border: "1px solid var(--mantine-color-gray-3)", borderRadius: 8 }}
        />
      ) : (
        <Code block aria-label={t("send.preview_text")} style={{ whiteSpace: "pre-wrap", maxHeight: 420 }}>
          {preview.text}
        </Code>
      )}
    </Stack>
  );
}
