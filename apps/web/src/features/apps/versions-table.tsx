// The app's builds, newest first, paged by the server.
import { Paper, Stack, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type ApplicationRecord,
  applicationKeys,
  listBuilds,
  type MyAppRole,
  type Version,
} from "../../api/applications.ts";
import { isAdminRole } from "../../api/roles.ts";
import { storeForAppType } from "../../api/store.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { useBreakpoint } from "../../ui/use-breakpoint.ts";
import { ReleaseNotesDialog } from "./release-notes-dialog.tsx";
import { canResignIos } from "./signing/can-resign-ios.ts";
import { isSignable, SignBuildDialog } from "./signing/sign-build-dialog.tsx";
import { PublishDialog } from "./store/publish-dialog.tsx";
import { StoreHistory } from "./store/store-history.tsx";
import { ExchangeFileModal } from "./upload/exchange-file-modal.tsx";
import { usePageCount } from "./use-page-count.ts";
import { VersionCard } from "./version-card.tsx";
import type { VersionActions } from "./version-parts.tsx";
import { DeleteVersionDialog, VersionRow } from "./version-row.tsx";

// The signing form is loaded the first time someone opens it, not with every app page.
const ResignIosModal = lazy(() => import("./signing/resign-ios-modal.tsx"));

export function VersionsTable({ app, rights }: { app: ApplicationRecord; rights: MyAppRole }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Version | null>(null);
  const [exchanging, setExchanging] = useState<Version | null>(null);
  const [deleting, setDeleting] = useState<Version | null>(null);
  const [signing, setSigning] = useState<Version | null>(null);
  const [resigningIos, setResigningIos] = useState<Version | null>(null);
  const [publishing, setPublishing] = useState<Version | null>(null);
  // Builds go to a store from iOS and Android apps, by the organization's owners and admins.
  const canPublish = storeForAppType(app.app_type) !== null && isAdminRole(rights.role);
  const query = useQuery({
    queryKey: applicationKeys.builds(app.id, page),
    queryFn: () => listBuilds(app.id, page),
  });
  const results = query.data?.results ?? [];
  const pages = usePageCount(page, query.data);
  // Ten columns do not fit a phone: there each build is a card, its Download button in reach.
  const asCards = useBreakpoint().breakpoint === "xs";
  const actionsFor = (version: Version): VersionActions => ({
    onEditNotes: () => setEditing(version),
    onExchange: () => setExchanging(version),
    onDelete: () => setDeleting(version),
    ...(isSignable(version)
      ? { onSign: () => setSigning(version) }
      : canResignIos(version)
        ? { onSign: () => setResigningIos(version) }
        : {}),
    ...(canPublish ? { onPublish: () => setPublishing(version) } : {}),
  });

  if (query.isPending) return <PageLoader />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  return (
    <Stack gap="md">
      {results.length === 0 ? (
        <Text c="dimmed">{t("apps.no_builds")}</Text>
      ) : asCards ? (
        <Stack gap="sm">
          {results.map((version) => (
            <VersionCard key={version.id} version={version} rights={rights} actions={actionsFor(version)} />
          ))}
        </Stack>
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={960}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("apps.version")}</Table.Th>
                  <Table.Th>{t("apps.build")}</Table.Th>
                  <Table.Th>{t("apps.date")}</Table.Th>
                  <Table.Th>{t("apps.size")}</Table.Th>
                  <Table.Th>{t("apps.uploader")}</Table.Th>
                  <Table.Th>{t("distribution.downloads_installs")}</Table.Th>
                  <Table.Th>{t("apps.min_os")}</Table.Th>
                  <Table.Th>{t("apps.signing")}</Table.Th>
                  <Table.Th>{t("apps.ready_to_sale")}</Table.Th>
                  <Table.Th>{t("staff.actions")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.map((version) => (
                  <VersionRow
                    key={version.id}
                    version={version}
                    rights={rights}
                    actions={actionsFor(version)}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      <PageControls pages={pages} page={page} onChange={setPage} />
      <ReleaseNotesDialog version={editing} onClose={() => setEditing(null)} />
      <ExchangeFileModal app={app} version={exchanging} onClose={() => setExchanging(null)} />
      <DeleteVersionDialog version={deleting} onClose={() => setDeleting(null)} />
      <SignBuildDialog version={signing} onClose={() => setSigning(null)} />
      {resigningIos ? (
        <Suspense fallback={null}>
          <ResignIosModal version={resigningIos} onClose={() => setResigningIos(null)} />
        </Suspense>
      ) : null}
      {canPublish ? (
        <PublishDialog app={app} version={publishing} onClose={() => setPublishing(null)} />
      ) : null}
      {storeForAppType(app.app_type) !== null ? <StoreHistory appId={app.id} /> : null}
    </Stack>
  );
}
