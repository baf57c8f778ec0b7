import { ActionIcon, Anchor, Badge, Menu, Stack, Switch, Table, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import {
  applicationKeys,
  deleteVersion,
  type MyAppRole,
  updateVersion,
  type Version,
} from "../../api/applications.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { formatDateTime } from "../../ui/format/date.ts";
import { minimumSystem } from "../../ui/format/min-os.ts";
import { formatBytes } from "../../ui/format/size.ts";
import { BuildSourceLine } from "./build-source-line.tsx";
import { InstallCounts } from "./distribution/install-counts.tsx";
import { signingSummary } from "./signing-summary.ts";

interface VersionRowProps {
  appId: number;
  version: Version;
  rights: MyAppRole;
  onEditNotes: () => void;
  onExchange: () => void;
  onDelete: () => void;
}

export function VersionRow({ version, rights, onEditNotes, onExchange, onDelete }: VersionRowProps) {
  const { t, i18n } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (ready: boolean) => updateVersion(version.id, { ready_to_sale: ready }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: applicationKeys.all() }),
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const uploader = version.uploaded_by
    ? [version.uploaded_by.first_name, version.uploaded_by.last_name].filter(Boolean).join(" ") ||
      version.uploaded_by.email
    : "—";
  const ready = toggle.isPending ? (toggle.variables ?? version.ready_to_sale) : version.ready_to_sale;
  const label = t("apps.version_build", { version: version.version, build: version.build_version_number });
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={2}>
          <Text fw={600}>{version.version || "—"}</Text>
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
      </Table.Td>
      <Table.Td>{version.build_version_number || "—"}</Table.Td>
      <Table.Td>{formatDateTime(version.date, i18n.language)}</Table.Td>
      <Table.Td>{formatBytes(version.file_size)}</Table.Td>
      <Table.Td>{uploader}</Table.Td>
      <Table.Td>
        <InstallCounts version={version} label={label} />
      </Table.Td>
      <Table.Td>{minimumSystem(version.app_type, version.min_os_version) ?? "—"}</Table.Td>
      <Table.Td>
        <Text fz="sm">{signingSummary(version, t, i18n.language)}</Text>
      </Table.Td>
      <Table.Td>
        <Switch
          aria-label={t("apps.ready_for", { version: label })}
          checked={ready}
          disabled={!rights.can_edit || toggle.isPending}
          onChange={(event) => toggle.mutate(event.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td>
        <Stack gap={4} align="flex-start">
          {rights.can_download && version.state === "ready" ? (
            <Anchor
              href={version.download_url}
              fz="sm"
              aria-label={t("apps.download_named", { version: label })}
            >
              {t("apps.download")}
            </Anchor>
          ) : null}
          {rights.can_edit || rights.can_delete ? (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" aria-label={t("apps.actions_for", { version: label })}>
                  <span aria-hidden="true">⋯</span>
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {rights.can_edit ? <Menu.Item onClick={onEditNotes}>{t("apps.edit_notes")}</Menu.Item> : null}
                {rights.can_edit ? <Menu.Item onClick={onExchange}>{t("exchange.open")}</Menu.Item> : null}
                {rights.can_delete ? (
                  <Menu.Item color="red" onClick={onDelete}>
                    {t("apps.delete_version")}
                  </Menu.Item>
                ) : null}
              </Menu.Dropdown>
            </Menu>
          ) : null}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

export function DeleteVersionDialog({ version, onClose }: { version: Version | null; onClose: () => void }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const { refreshProfile } = useDashboard();
  const remove = useMutation({
    mutationFn: (id: number) => deleteVersion(id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("apps.version_deleted") });
      void queryClient.invalidateQueries({ queryKey: applicationKeys.all() });
      void refreshProfile();
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <ConfirmDialog
      opened={version !== null}
      title={t("apps.delete_version")}
      message={t("apps.delete_version_confirm", { version: version?.version ?? "" })}
      confirmLabel={t("apps.delete_version")}
      busy={remove.isPending}
      onConfirm={() => version && !remove.isPending && remove.mutate(version.id)}
      onClose={onClose}
    />
  );
}
