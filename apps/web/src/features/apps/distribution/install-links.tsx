// The app's install links: the permanent app-level one first, then links to single versions.
import { Button, Group, Stack, Switch, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { applicationKeys, listBuilds, type Version } from "../../../api/applications.ts";
import {
  type DistributionRecord,
  deleteDistribution,
  distributionKeys,
  listDistributions,
  permanentLinkPdfUrl,
} from "../../../api/distribution.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../../ui/confirm-dialog.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageLoader } from "../../../ui/page-loader.tsx";
import { LinkCard } from "./link-card.tsx";
import { LinkDialog } from "./link-dialog.tsx";

type Editing = { link: DistributionRecord | null } | null;

export function InstallLinks({ appId, canManage }: { appId: number; canManage: boolean }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<DistributionRecord | null>(null);
  // Expired and used-up links install nothing any more: out of the way unless asked for.
  const [showInactive, setShowInactive] = useState(false);
  const links = useQuery({
    queryKey: distributionKeys.links(appId),
    queryFn: () => listDistributions(appId),
  });
  // The newest builds are the ones worth a link of their own.
  const builds = useQuery({
    queryKey: applicationKeys.builds(appId, 1),
    queryFn: () => listBuilds(appId, 1),
  });
  const versions = builds.data?.results ?? [];
  const remove = useMutation({
    mutationFn: (id: number) => deleteDistribution(id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("distribution.link_deleted") });
      void queryClient.invalidateQueries({ queryKey: distributionKeys.links(appId) });
      setDeleting(null);
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });

  const targetOf = (link: DistributionRecord) => {
    const version = versions.find((item) => item.id === link.version);
    const target =
      link.version === null
        ? t("distribution.app_link")
        : version
          ? versionLabel(version, t)
          : t("distribution.version_id", { id: link.version });
    // Links to the same build differ by who may open them; say so in the title.
    return link.access === "public" ? target : `${target} · ${t(`distribution.access.${link.access}`)}`;
  };
  const card = (link: DistributionRecord) => (
    <LinkCard
      key={link.id}
      link={link}
      target={targetOf(link)}
      canManage={canManage}
      onEdit={() => setEditing({ link })}
      onDelete={() => setDeleting(link)}
    />
  );
  const sorted = [...(links.data ?? [])].sort(
    (a, b) => Number(a.version !== null) - Number(b.version !== null) || b.id - a.id,
  );
  const active = sorted.filter((link) => link.state === "active");
  const inactive = sorted.filter((link) => link.state !== "active");

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Title order={2} fz="lg">
          {t("distribution.links_title")}
        </Title>
        <Group gap="xs">
          <Button size="xs" variant="default" component="a" href={permanentLinkPdfUrl(appId)} download>
            {t("distribution.pdf")}
          </Button>
          {canManage ? (
            <Button size="xs" onClick={() => setEditing({ link: null })}>
              {t("distribution.new_link")}
            </Button>
          ) : null}
        </Group>
      </Group>
      {links.isPending ? <PageLoader /> : null}
      {links.isError ? <LoadError onRetry={() => void links.refetch()} /> : null}
      {links.data && links.data.length === 0 ? <Text c="dimmed">{t("distribution.no_links")}</Text> : null}
      {active.map(card)}
      {inactive.length > 0 ? (
        <Switch
          checked={showInactive}
          onChange={(event) => setShowInactive(event.currentTarget.checked)}
          label={t("distribution.show_inactive", { count: inactive.length })}
        />
      ) : null}
      {showInactive && inactive.length > 0 ? (
        <Stack gap="sm" component="section" aria-label={t("distribution.inactive_title")}>
          {inactive.map(card)}
        </Stack>
      ) : null}
      {editing ? (
        <LinkDialog appId={appId} link={editing.link} versions={versions} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        opened={deleting !== null}
        title={t("distribution.delete_link")}
        message={t("distribution.delete_link_confirm")}
        confirmLabel={t("distribution.delete_link")}
        busy={remove.isPending}
        onConfirm={() => deleting && !remove.isPending && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

export function versionLabel(version: Pick<Version, "version" | "build_version_number">, t: TFunction) {
  return t("apps.version_build", { version: version.version, build: version.build_version_number });
}
