// The app's activity log, newest first.
import { Paper, Stack, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type AppLogEntry, applicationKeys, listAppLogs } from "../../api/applications.ts";
import { formatDateTime } from "../../ui/format/date.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { usePageCount } from "./use-page-count.ts";

function actorName(entry: AppLogEntry): string {
  if (!entry.user) return "—";
  return [entry.user.first_name, entry.user.last_name].filter(Boolean).join(" ") || entry.user.email;
}

export function AppActivity({ appId }: { appId: number }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: applicationKeys.logs(appId, page),
    queryFn: () => listAppLogs(appId, page),
  });
  const results = query.data?.results ?? [];
  const pages = usePageCount(page, query.data);

  if (query.isPending) return <PageLoader />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  if (results.length === 0 && page === 1) return <Text c="dimmed">{t("apps.no_activity")}</Text>;
  return (
    <Stack gap="md">
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("apps.date")}</Table.Th>
                <Table.Th>{t("apps.activity_action")}</Table.Th>
                <Table.Th>{t("apps.activity_user")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{formatDateTime(entry.created_at, i18n.language)}</Table.Td>
                  <Table.Td>
                    {t(`apps.log_actions.${entry.action}`, {
                      defaultValue: entry.action.replace(/[._]/g, " "),
                    })}
                  </Table.Td>
                  <Table.Td>{actorName(entry)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <PageControls pages={pages} page={page} onChange={setPage} />
    </Stack>
  );
}
