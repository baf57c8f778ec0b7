// The organization's applications (spec §2): search by title, platform filter, pages.
import { Button, Group, SegmentedControl, Stack, TextInput } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import type { OrgData } from "../../api/account.ts";
import {
  APPS_PAGE_SIZE,
  type AppListFilter,
  type AppType,
  applicationKeys,
  listApplications,
} from "../../api/applications.ts";
import { isAdminRole } from "../../api/roles.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { PageFrame, ProfileGate } from "../../ui/page-frame.tsx";
import { APP_TYPES, platformKey } from "../../ui/platform.ts";
import { useSettledSearch } from "../../ui/use-settled-search.ts";
import { AppsEmpty, AppsSkeleton, AppsTable } from "./apps-table.tsx";
import { useUploadFlow } from "./upload/upload-context.tsx";

const ALL = "all";

export function AppsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("apps.title")} description={t("apps.description")}>
      <ProfileGate needsOrg>{(_profile, org) => (org ? <AppsList org={org} /> : null)}</ProfileGate>
    </PageFrame>
  );
}

function AppsList({ org }: { org: OrgData }) {
  const { t } = useTranslation();
  const flow = useUploadFlow();
  const [searchParams, setSearchParams] = useSearchParams();
  const canCreateHere = isAdminRole(org.role);
  // ?add=1 (the dashboard's "upload your first build") opens the upload dialog once.
  useEffect(() => {
    if (searchParams.get("add") !== "1") return;
    setSearchParams({}, { replace: true });
    if (canCreateHere) flow.open();
  }, [searchParams, setSearchParams, canCreateHere, flow]);
  const [mobileType, setMobileType] = useState<AppType | null>(null);
  const [page, setPage] = useState(1);
  const resetPage = useCallback(() => setPage(1), []);
  const canCreate = isAdminRole(org.role);

  const { typed, setTyped, search: title } = useSettledSearch(resetPage);

  const filter: AppListFilter = { org: org.org_id, title, mobileType, page };
  const query = useQuery({
    queryKey: applicationKeys.list(filter),
    queryFn: () => listApplications(filter),
  });
  const pages = Math.max(1, Math.ceil((query.data?.count ?? 0) / APPS_PAGE_SIZE));
  const filtered = title !== "" || mobileType !== null;

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm" align="flex-end">
        <Group gap="sm" align="flex-end">
          <TextInput
            type="search"
            label={t("apps.search")}
            placeholder={t("apps.search_placeholder")}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            w={{ base: "100%", xs: 260 }}
          />
          <SegmentedControl
            aria-label={t("apps.platform_filter")}
            value={mobileType === null ? ALL : String(mobileType)}
            onChange={(value) => {
              setMobileType(value === ALL ? null : (Number(value) as AppType));
              setPage(1);
            }}
            data={[
              { value: ALL, label: t("apps.all_platforms") },
              ...APP_TYPES.map((type) => ({ value: String(type), label: t(platformKey(type)) })),
            ]}
          />
        </Group>
        {canCreate ? <Button onClick={() => flow.open()}>{t("apps.add")}</Button> : null}
      </Group>
      {query.isPending ? <AppsSkeleton /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.results.length === 0 ? (
        <AppsEmpty filtered={filtered} canCreate={canCreate} onAdd={() => flow.open()} />
      ) : null}
      {query.data && query.data.results.length > 0 ? <AppsTable apps={query.data.results} /> : null}
      <PageControls pages={pages} page={page} onChange={setPage} />
    </Stack>
  );
}
