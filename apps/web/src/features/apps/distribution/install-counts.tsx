// A version's installs and downloads per platform, loaded when the user opens the breakdown.
import { Button, Popover, Stack, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Version } from "../../../api/applications.ts";
import { distributionKeys, fetchVersionInstalls, type InstallCount } from "../../../api/distribution.ts";

const PLATFORM_KEYS: Record<string, string> = {
  ios: "platforms.ios",
  android: "platforms.android",
  windows: "platforms.windows",
  macos: "platforms.macos",
};

/** Visitors' devices: iPhones and iPads both count as iOS. */
function platformOf(name: string): string {
  if (name === "iphone" || name === "ipad") return "ios";
  return name in PLATFORM_KEYS ? name : "other";
}

/** One row per platform with both kinds side by side, busiest first. */
export function countsByPlatform(
  counts: InstallCount[],
): { platform: string; install: number; download: number }[] {
  const rows = new Map<string, { platform: string; install: number; download: number }>();
  for (const count of counts) {
    const platform = platformOf(count.platform);
    const row = rows.get(platform) ?? { platform, install: 0, download: 0 };
    row[count.kind] += count.count;
    rows.set(platform, row);
  }
  return [...rows.values()].sort((a, b) => b.install + b.download - (a.install + a.download));
}

export function InstallCounts({ version, label }: { version: Version; label: string }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const query = useQuery({
    queryKey: distributionKeys.installs(version.id),
    queryFn: () => fetchVersionInstalls(version.id),
    enabled: opened,
  });
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom" withArrow shadow="md">
      <Popover.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-label={t("distribution.counts_of", { version: label })}
          onClick={() => setOpened((value) => !value)}
        >
          {t("distribution.counts_short", {
            download: version.download_count,
            install: version.install_count,
          })}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        {query.isPending ? <Text fz="sm">{t("common.loading")}</Text> : null}
        {query.isError ? <Text fz="sm">{t("errors.load_failed")}</Text> : null}
        {query.data ? (
          query.data.length === 0 ? (
            <Text fz="sm">{t("distribution.no_counts")}</Text>
          ) : (
            <Stack gap={4}>
              <Table fz="sm" verticalSpacing={2} aria-label={t("distribution.counts_of", { version: label })}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("apps.platform")}</Table.Th>
                    <Table.Th>{t("distribution.installs")}</Table.Th>
                    <Table.Th>{t("apps.downloads")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {countsByPlatform(query.data).map((row) => (
                    <Table.Tr key={row.platform}>
                      <Table.Td>{t(PLATFORM_KEYS[row.platform] ?? "distribution.other_platform")}</Table.Td>
                      <Table.Td>{row.install}</Table.Td>
                      <Table.Td>{row.download}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          )
        ) : null}
      </Popover.Dropdown>
    </Popover>
  );
}
