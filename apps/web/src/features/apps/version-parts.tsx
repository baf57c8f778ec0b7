// The pieces of one build that the versions table and the phone's version cards both show.
import { ActionIcon, Anchor, Badge, Button, Menu, Stack, Switch, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { applicationKeys, type MyAppRole, updateVersion, type Version } from "../../api/applications.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { describeError } from "../../ui/error-text.ts";
import { BuildSourceLine } from "./build-source-line.tsx";

export interface VersionActions {
  onEditNotes: () => void;
  onExchange: () => void;
  onDelete: () => void;
  /** Re-signs the build; absent for builds that cannot be signed on the server. */
  onSign?: () => void;
  /** Present when the build may go to a store (owners and admins, iOS and Android apps). */
  onPublish?: () => void;
}

/** One build as a row or a card shows it: what the caller may do with it, and how. */
export interface VersionItemProps {
  version: Version;
  rights: MyAppRole;
  actions: VersionActions;
}

/** "1.2.0 (42)": how a build is named in labels read out by screen readers. */
export function useVersionLabel(version: Version): string {
  const { t } = useTranslation();
  return t("apps.version_build", { version: version.version, build: version.build_version_number });
}

export function uploaderName(version: Version): string {
  const uploader = version.uploaded_by;
  if (!uploader) return "—";
  return [uploader.first_name, uploader.last_name].filter(Boolean).join(" ") || uploader.email;
}

/** The version, its state when not ready, the start of its notes and where it came from. */
export function VersionSummary({ version }: { version: Version }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      {/* "2.0.0-beta.1" broken at its hyphen reads as two things. */}
      <Text fw={600} style={{ whiteSpace: "nowrap" }}>
        {version.version || "—"}
      </Text>
      {version.state !== "ready" ? (
        <Badge size="xs" color={version.state === "failed" ? "red" : "yellow"}>
          {t(`apps.states.${version.state}`)}
        </Badge>
      ) : null}
      {version.whats_new ? (
        <Text fz="xs" c="dimmed" lineClamp={2} maw={240}>
          {version.whats_new}
        </Text>
      ) : null}
      <BuildSourceLine version={version} />
    </Stack>
  );
}

/** The "ready to sale" switch; it shows the wished state while the server takes it. */
export function ReadySwitch({ version, rights }: { version: Version; rights: MyAppRole }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const label = useVersionLabel(version);
  const toggle = useMutation({
    mutationFn: (ready: boolean) => updateVersion(version.id, { ready_to_sale: ready }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: applicationKeys.all() }),
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const ready = toggle.isPending ? (toggle.variables ?? version.ready_to_sale) : version.ready_to_sale;
  return (
    <Switch
      aria-label={t("apps.ready_for", { version: label })}
      checked={ready}
      disabled={!rights.can_edit || toggle.isPending}
      onChange={(event) => toggle.mutate(event.currentTarget.checked)}
    />
  );
}

/** The file's link, for those who may download it once it is ready; `prominent` on a phone's card. */
export function VersionDownload({
  version,
  rights,
  prominent = false,
}: {
  version: Version;
  rights: MyAppRole;
  prominent?: boolean;
}) {
  const { t } = useTranslation();
  const label = useVersionLabel(version);
  if (!rights.can_download || version.state !== "ready") return null;
  const props = { href: version.download_url, "aria-label": t("apps.download_named", { version: label }) };
  return prominent ? (
    <Button component="a" size="sm" fullWidth {...props}>
      {t("apps.download")}
    </Button>
  ) : (
    <Anchor fz="sm" style={{ whiteSpace: "nowrap" }} {...props}>
      {t("apps.download")}
    </Anchor>
  );
}

export function VersionMenu({ version, rights, actions }: VersionItemProps) {
  const { t } = useTranslation();
  const label = useVersionLabel(version);
  const canSign = rights.can_upload && actions.onSign !== undefined;
  if (!rights.can_edit && !rights.can_delete && !canSign) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={t("apps.actions_for", { version: label })}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {rights.can_edit ? <Menu.Item onClick={actions.onEditNotes}>{t("apps.edit_notes")}</Menu.Item> : null}
        {rights.can_edit ? <Menu.Item onClick={actions.onExchange}>{t("exchange.open")}</Menu.Item> : null}
        {canSign ? <Menu.Item onClick={actions.onSign}>{t("signing.sign_action")}</Menu.Item> : null}
        {actions.onPublish && version.state === "ready" ? (
          <Menu.Item onClick={actions.onPublish}>{t("store.publish_to_store")}</Menu.Item>
        ) : null}
        {rights.can_delete ? (
          <Menu.Item color="red" onClick={actions.onDelete}>
            {t("apps.delete_version")}
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
