// One application (spec §2): header, platform and environment switchers, builds and activity.
import { Anchor, Stack, Tabs, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { applicationKeys, fetchApplication, fetchMyAppRole, type MyAppRole } from "../../api/applications.ts";
import { ApiError } from "../../api/client.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { AppActivity } from "./app-activity.tsx";
import { AppHeader } from "./app-header.tsx";
import { DistributionTab } from "./distribution/distribution-tab.tsx";
import { IosHttpsWarning } from "./distribution/ios-https-warning.tsx";
import { FeedbackTab } from "./feedback/feedback-tab.tsx";
import { IntegrationsTab } from "./integrations/integrations-tab.tsx";
import { MembersTab } from "./project-members/members-tab.tsx";
import { KeystoreTab } from "./signing/keystore-tab.tsx";
import { VersionsTable } from "./versions-table.tsx";

/** Until check_my_role answers, nothing may be changed. */
const NO_RIGHTS: MyAppRole = {
  role: 0,
  project_role: null,
  can_upload: false,
  can_edit: false,
  can_delete: false,
  can_download: false,
};

export function AppPage() {
  const { id } = useParams();
  const appId = Number(id);
  return Number.isInteger(appId) && appId > 0 ? <AppView key={appId} appId={appId} /> : <AppMissing />;
}

function AppMissing() {
  const { t } = useTranslation();
  useDocumentTitle(t("apps.not_found"));
  return (
    <Stack gap="sm" py="xl" align="center">
      <Text fw={600}>{t("apps.not_found")}</Text>
      <Anchor component={Link} to="/dashboard/apps">
        {t("apps.back_to_list")}
      </Anchor>
    </Stack>
  );
}

/** Tabs a link may open (`?tab=integrations` from the organization's integrations page). */
const LINKABLE_TABS = [
  "versions",
  "distribution",
  "feedback",
  "members",
  "integrations",
  "signing",
  "activity",
];

function AppView({ appId }: { appId: number }) {
  const { t } = useTranslation();
  const asked = useSearchParams()[0].get("tab") ?? "";
  const firstTab = LINKABLE_TABS.includes(asked) ? asked : "versions";
  const app = useQuery({ queryKey: applicationKeys.detail(appId), queryFn: () => fetchApplication(appId) });
  const role = useQuery({ queryKey: applicationKeys.role(appId), queryFn: () => fetchMyAppRole(appId) });
  useDocumentTitle(app.data ? app.data.project_title || app.data.title : t("apps.title"));

  if (app.isPending) return <PageLoader />;
  if (app.isError) {
    if (app.error instanceof ApiError && app.error.status === 404) return <AppMissing />;
    return <LoadError onRetry={() => void app.refetch()} />;
  }
  const rights = role.data ?? NO_RIGHTS;
  // Install links, testers and sending belong to whoever may upload to the app.
  const canDistribute = rights.can_upload || rights.can_edit;
  const android = app.data.app_type === 0;
  return (
    <Stack gap="lg" maw={1200}>
      <Anchor component={Link} to="/dashboard/apps" fz="sm">
        {t("apps.back_to_list")}
      </Anchor>
      <AppHeader app={app.data} rights={rights} />
      {app.data.app_type === 1 && canDistribute ? <IosHttpsWarning /> : null}
      <Tabs defaultValue={firstTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="versions">{t("apps.versions_tab", { count: app.data.count_versions })}</Tabs.Tab>
          {canDistribute ? <Tabs.Tab value="distribution">{t("distribution.tab")}</Tabs.Tab> : null}
          <Tabs.Tab value="feedback">{t("feedback.tab")}</Tabs.Tab>
          {rights.can_edit ? <Tabs.Tab value="members">{t("members.tab")}</Tabs.Tab> : null}
          {rights.can_edit ? <Tabs.Tab value="integrations">{t("integrations.tab")}</Tabs.Tab> : null}
          {android && rights.can_edit ? <Tabs.Tab value="signing">{t("signing.tab")}</Tabs.Tab> : null}
          <Tabs.Tab value="activity">{t("apps.activity_tab")}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="versions" pt="md">
          <VersionsTable app={app.data} rights={rights} />
        </Tabs.Panel>
        {canDistribute ? (
          <Tabs.Panel value="distribution" pt="md">
            <DistributionTab app={app.data} rights={rights} />
          </Tabs.Panel>
        ) : null}
        {rights.can_edit ? (
          <Tabs.Panel value="members" pt="md">
            <MembersTab app={app.data} />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="feedback" pt="md">
          <FeedbackTab app={app.data} rights={rights} />
        </Tabs.Panel>
        {rights.can_edit ? (
          <Tabs.Panel value="integrations" pt="md">
            <IntegrationsTab app={app.data} />
          </Tabs.Panel>
        ) : null}
        {android && rights.can_edit ? (
          <Tabs.Panel value="signing" pt="md">
            <KeystoreTab app={app.data} />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="activity" pt="md">
          <AppActivity appId={appId} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
