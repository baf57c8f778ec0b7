// One store upload's live state, polled every 5 seconds (spec §9) until it is done or failed.
import { Badge, Group, Progress, Stack, Text } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import {
  fetchStoreUpload,
  isUnderWay,
  type StoreKind,
  type StoreUpload,
  storeKeys,
} from "../../../api/store.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageLoader } from "../../../ui/page-loader.tsx";

export const STORE_POLL_MS = 5000;

export function StoreUploadProgress({ store, taskId }: { store: StoreKind; taskId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: storeKeys.task(store, taskId),
    queryFn: () => fetchStoreUpload(store, taskId),
    refetchInterval: (current) =>
      current.state.data && !isUnderWay(current.state.data) ? false : STORE_POLL_MS,
  });
  const finished = query.data && !isUnderWay(query.data);
  const appId = query.data?.app;
  useEffect(() => {
    if (finished && appId) void queryClient.invalidateQueries({ queryKey: storeKeys.history(appId) });
  }, [finished, appId, queryClient]);
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  return <StoreUploadState upload={query.data} />;
}

const stateColors: Record<StoreUpload["state"], string> = {
  queued: "gray",
  uploading: "blue",
  processing: "yellow",
  done: "green",
  failed: "red",
};

export function StoreUploadState({ upload }: { upload: StoreUpload }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="store-upload-state">
      <Group gap="sm">
        <Badge color={stateColors[upload.state]}>{t(`store.states.${upload.state}`)}</Badge>
        {upload.state === "uploading" ? (
          <Text fz="sm">{t("store.percent", { percent: upload.progress })}</Text>
        ) : null}
      </Group>
      {isUnderWay(upload) ? (
        <Progress value={upload.progress} animated aria-label={t("store.progress_label")} />
      ) : null}
      {upload.message ? (
        <Text fz="sm" c={upload.state === "failed" ? "red" : undefined}>
          {upload.message}
        </Text>
      ) : null}
    </Stack>
  );
}
