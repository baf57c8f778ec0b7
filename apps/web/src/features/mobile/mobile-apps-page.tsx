// The mobile app area (/dashboard/m): a phone-sized list of the apps the user may install,
// newest build first, each with an install button that opens the app's permanent install page.
import { Badge, Button, Chip, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { ApplicationRecord } from "../../api/applications.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { distributionKeys, fetchAppLink, listMobileApps, MOBILE_PAGE_SIZE } from "../../api/distribution.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { AppIcon } from "../../ui/app-icon.tsx";
import { describeError } from "../../ui/error-text.ts";
import { formatDateTime } from "../../ui/format/date.ts";
import { readVisitorDevice } from "../../ui/install-platform.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { APP_TYPES, platformKey } from "../../ui/platform.ts";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

type Filter = "all" | "0" | "1" | "2" | "3";

/** A phone sees its own platform first; other visitors see everything. */
export function defaultFilter(device: string): Filter {
  if (device === "android") return "0";
  if (device === "iphone" || device === "ipad") return "1";
  return "all";
}

function releasedAt(app: ApplicationRecord): string {
  return app.current_version?.date ?? app.updated_at;
}

/** Newest build first; the server pages, the page itself is ordered here. */
export function newestFirst(apps: ApplicationRecord[]): ApplicationRecord[] {
  return [...apps].sort((a, b) => releasedAt(b).localeCompare(releasedAt(a)));
}

export function MobileAppsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("mobile.title"));
  const { currentOrg } = useDashboard();
  const device = useMemo(() => readVisitorDevice().device, []);
  const [filter, setFilter] = useState<Filter>(() => defaultFilter(device));
  const [page, setPage] = useState(1);
  const orgId = currentOrg?.org_id ?? 0;
  const mobileType = filter === "all" ? null : Number(filter);
  const query = useQuery({
    queryKey: distributionKeys.mobileApps(orgId, page, mobileType),
    queryFn: () => listMobileApps(orgId, page, mobileType),
    enabled: orgId > 0,
  });
  const pages = query.data ? Math.max(1, Math.ceil(query.data.count / MOBILE_PAGE_SIZE)) : page;
  return (
    <Stack gap="md" maw={560} mx="auto" w="100%">
      <Title order={1} fz={24}>
        {t("mobile.title")}
      </Title>
      {/* Chips wrap onto a second line on a narrow phone, where five segments would push "All" off screen. */}
      <Chip.Group
        value={filter}
        onChange={(value) => {
          setFilter(value as Filter);
          setPage(1);
        }}
      >
        <Group gap="xs" role="radiogroup" aria-label={t("apps.platform_filter")}>
          {/* Every platform the list can hold: desktop builds are installed from here too. */}
          {[
            { value: "all", label: t("apps.all_platforms") },
            ...APP_TYPES.map((type) => ({ value: String(type), label: t(platformKey(type)) })),
          ].map((option) => (
            <Chip key={option.value} value={option.value} name="platform-filter">
              {option.label}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {query.isPending && orgId > 0 ? <PageLoader /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.results.length === 0 ? <Text c="dimmed">{t("mobile.empty")}</Text> : null}
      {newestFirst(query.data?.results ?? []).map((app) => (
        <MobileAppCard key={app.id} app={app} />
      ))}
      <PageControls pages={pages} page={page} onChange={setPage} />
    </Stack>
  );
}

function MobileAppCard({ app }: { app: ApplicationRecord }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const alerts = useAlerts();
  const version = app.current_version;
  const open = useMutation({
    mutationFn: () => fetchAppLink(app.id),
    onSuccess: (link) => {
      if (link) navigate(`/getapp/${encodeURIComponent(link.key)}`);
      else alerts.show({ type: "error", message: t("mobile.no_link") });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const title = app.project_title || app.title;
  return (
    <Paper withBorder radius="md" p="md" component="article" aria-label={title}>
      <Group wrap="nowrap" gap="md" align="center">
        <AppIcon src={app.icon} appType={app.app_type} title={title} size={52} />
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Text fw={600} truncate>
            {title}
          </Text>
          <Group gap={6}>
            <Badge size="xs" variant="light">
              {t(platformKey(app.app_type))}
            </Badge>
            {app.environment ? (
              <Badge size="xs" variant="outline">
                {app.environment}
              </Badge>
            ) : null}
          </Group>
          <Text fz="xs" c="dimmed">
            {version
              ? `${t("apps.version_build", { version: version.version, build: version.build_version_number })} · ${formatDateTime(version.date, i18n.language)}`
              : t("apps.no_builds")}
          </Text>
        </Stack>
        <Button
          size="sm"
          disabled={!version}
          loading={open.isPending}
          aria-label={t("mobile.install_named", { title })}
          onClick={() => open.mutate()}
        >
          {t("mobile.install")}
        </Button>
      </Group>
    </Paper>
  );
}
