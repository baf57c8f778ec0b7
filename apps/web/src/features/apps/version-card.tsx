// One build on a phone: the table's columns as a short card, Download always in reach.
import { Group, Paper, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../ui/format/date.ts";
import { minimumSystem } from "../../ui/format/min-os.ts";
import { formatBytes } from "../../ui/format/size.ts";
import { InstallCounts } from "./distribution/install-counts.tsx";
import { signingSummary } from "./signing-summary.ts";
import * as Parts from "./version-parts.tsx";

export function VersionCard({ version, rights, actions }: Parts.VersionItemProps) {
  const { t, i18n } = useTranslation();
  const label = Parts.useVersionLabel(version);
  const minOs = minimumSystem(version.app_type, version.min_os_version);
  const facts = [
    `${t("apps.build")} ${version.build_version_number || "—"}`,
    formatDateTime(version.date, i18n.language),
    formatBytes(version.file_size),
    minOs,
  ].filter(Boolean);
  return (
    <Paper withBorder radius="md" p="sm" component="article" aria-label={label}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Parts.VersionSummary version={version} />
          <Parts.VersionMenu version={version} rights={rights} actions={actions} />
        </Group>
        <Text fz="sm" c="dimmed">
          {facts.join(" · ")}
        </Text>
        <Text fz="sm">{`${t("apps.uploader")}: ${Parts.uploaderName(version)}`}</Text>
        <Text fz="sm">{signingSummary(version, t, i18n.language)}</Text>
        <Group justify="space-between" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Parts.ReadySwitch version={version} rights={rights} />
            <Text fz="sm">{t("apps.ready_to_sale")}</Text>
          </Group>
          <InstallCounts version={version} label={label} />
        </Group>
        <Parts.VersionDownload version={version} rights={rights} prominent />
      </Stack>
    </Paper>
  );
}
