// The activity log of one organization, newest first, a page at a time.
import { List, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ADMIN_ACTIVITY_PAGE_SIZE, adminKeys, fetchOrganizationActivity } from "../../api/admin.ts";
import { formatDateTime } from "../../ui/format/date.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { describeActivity } from "./activity-text.ts";

export function ActivityLog({
  organizationId,
  planTitle,
}: {
  organizationId: number;
  planTitle: (code: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const headingId = useId();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: adminKeys.activity(organizationId, page),
    queryFn: () => fetchOrganizationActivity(organizationId, page),
  });
  const pages = Math.max(1, Math.ceil((query.data?.count ?? 0) / ADMIN_ACTIVITY_PAGE_SIZE));

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} fz="md" id={headingId}>
        {t("admin.activity")}
      </Title>
      {query.isPending ? <PageLoader /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.results.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t("admin.activity_empty")}
        </Text>
      ) : null}
      {query.data && query.data.results.length > 0 ? (
        <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: "none" }} data-testid="activity-log">
          {query.data.results.map((entry) => {
            const described = describeActivity(entry, t, language, planTitle);
            return (
              <li key={entry.id}>
                <Text fz="sm" fw={600}>
                  {described.summary}
                </Text>
                {described.changes.length > 0 ? (
                  <List fz="sm" spacing={0} withPadding>
                    {described.changes.map((change) => (
                      <List.Item key={change}>{change}</List.Item>
                    ))}
                  </List>
                ) : null}
                <Text fz="xs" c="dimmed">
                  {described.who} ·{" "}
                  <time dateTime={entry.created_at}>{formatDateTime(entry.created_at, language)}</time>
                </Text>
              </li>
            );
          })}
        </Stack>
      ) : null}
      <PageControls pages={pages} page={page} onChange={setPage} />
    </Stack>
  );
}
