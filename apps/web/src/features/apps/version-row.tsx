import { Group, Table, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { applicationKeys, deleteVersion, type Version } from "../../api/applications.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { formatDateTime } from "../../ui/format/date.ts";
import { minimumSystem } from "../../ui/format/min-os.ts";
import { formatBytes } from "../../ui/format/size.ts";
import { InstallCounts } from "./distribution/install-counts.tsx";
import { signingSummary } from "./signing-summary.ts";
import {
  ReadySwitch,
  uploaderName,
  useVersionLabel,
  VersionDownload,
  type VersionItemProps,
  VersionMenu,
  VersionSummary,
} from "./version-parts.tsx";

export function VersionRow({ version, rights, actions }: VersionItemProps) {
  const { t, i18n } = useTranslation();
  const label = useVersionLabel(version);
  return (
    <Table.Tr>
      <Table.Td>
        <VersionSummary version={version} />
      </Table.Td>
      <Table.Td>{version.build_version_number || "—"}</Table.Td>
      <Table.Td>{formatDateTime(version.date, i18n.language)}</Table.Td>
      <Table.Td style={{ whiteSpace: "nowrap" }}>{formatBytes(version.file_size)}</Table.Td>
      <Table.Td>{uploaderName(version)}</Table.Td>
      <Table.Td>
        <InstallCounts version={version} label={label} />
      </Table.Td>
      <Table.Td>{minimumSystem(version.app_type, version.min_os_version) ?? "—"}</Table.Td>
      <Table.Td>
        <Text fz="sm">{signingSummary(version, t, i18n.language)}</Text>
      </Table.Td>
      <Table.Td>
        <ReadySwitch version={version} rights={rights} />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <VersionDownload version={version} rights={rights} />
          <VersionMenu version={version} rights={rights} actions={actions} />
        </Group>
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
