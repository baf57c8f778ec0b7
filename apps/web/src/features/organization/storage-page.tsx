import { Badge, Group, SegmentedControl, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import { isAdminRole } from "../../api/roles.ts";
import {
  fetchCustomStorage,
  fetchGoogleCloudStorage,
  fetchStorageOverview,
  type StorageKind,
  storageKeys,
} from "../../api/storage.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageFrame, ProfileGate, Section } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { GcsStorageForm } from "./gcs-storage-form.tsx";
import { InstanceStorageChoice } from "./instance-storage-choice.tsx";
import { S3StorageForm } from "./s3-storage-form.tsx";
import { StorageMoveSection } from "./storage-move-section.tsx";

export function StoragePage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("storage.title")} description={t("storage.description")}>
      <ProfileGate needsOrg allow={isAdminRole}>
        {(_profile, org) => (org ? <StorageSettings org={org} /> : null)}
      </ProfileGate>
    </PageFrame>
  );
}

function StorageSettings({ org }: { org: OrgData }) {
  const { t } = useTranslation();
  const orgId = org.org_id;
  const overview = useQuery({
    queryKey: storageKeys.overview(orgId),
    queryFn: () => fetchStorageOverview(orgId),
    // While a move runs, its progress is polled.
    refetchInterval: (query) => {
      const state = query.state.data?.move?.state;
      return state === "queued" || state === "running" ? 2000 : false;
    },
  });
  const custom = useQuery({ queryKey: storageKeys.custom(orgId), queryFn: () => fetchCustomStorage(orgId) });
  const gcs = useQuery({ queryKey: storageKeys.gcs(orgId), queryFn: () => fetchGoogleCloudStorage(orgId) });
  const [shown, setShown] = useState<StorageKind | null>(null);
  const active = overview.data?.kind;
  useEffect(() => setShown((current) => current ?? active ?? null), [active]);

  if (overview.isPending || custom.isPending || gcs.isPending) return <PageLoader />;
  if (overview.isError || custom.isError || gcs.isError) {
    return (
      <LoadError
        onRetry={() => {
          void overview.refetch();
          void custom.refetch();
          void gcs.refetch();
        }}
      />
    );
  }
  const bucket = active === "s3" ? custom.data.bucket : gcs.data.bucket;
  const label = (kind: StorageKind) => (
    <Group gap={6} wrap="nowrap" justify="center">
      <span>{t(`storage.tab_${kind}`)}</span>
      {kind === active ? (
        <Badge size="xs" variant="light" aria-label={t("storage.active")}>
          {t("storage.active")}
        </Badge>
      ) : null}
    </Group>
  );
  return (
    <Stack gap="lg">
      <Section title={t("storage.choice")}>
        <Text data-testid="storage-status">
          {active === "instance" ? t("storage.status_instance") : t(`storage.status_${active}`, { bucket })}
        </Text>
        <SegmentedControl
          value={shown ?? "instance"}
          onChange={(value) => setShown(value as StorageKind)}
          data={(["instance", "s3", "gcs"] as const).map((kind) => ({ value: kind, label: label(kind) }))}
          fullWidth
          aria-label={t("storage.choice")}
        />
        {shown === "s3" ? <S3StorageForm orgId={orgId} saved={custom.data} /> : null}
        {shown === "gcs" ? <GcsStorageForm orgId={orgId} saved={gcs.data} /> : null}
        {shown === "instance" || shown === null ? (
          <InstanceStorageChoice orgId={orgId} active={active === "instance"} />
        ) : null}
      </Section>
      <Section title={t("storage.move_title")}>
        <StorageMoveSection orgId={orgId} overview={overview.data} />
      </Section>
    </Stack>
  );
}
