import { Alert, Button, Progress, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { type StorageOverview, startStorageMove, storageKeys } from "../../api/storage.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { describeError } from "../../ui/error-text.ts";
import { formatBytes } from "../../ui/format/size.ts";

/** "Move existing builds": starts the move and follows its progress (the page polls while it runs). */
export function StorageMoveSection({ orgId, overview }: { orgId: number; overview: StorageOverview }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: () => startStorageMove(orgId),
    onSuccess: (next) => {
      queryClient.setQueryData(storageKeys.overview(orgId), next);
      alerts.show({ type: "success", message: t("storage.move_started") });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const { move } = overview;
  const running = move?.state === "queued" || move?.state === "running";
  const percent = move && move.total_files > 0 ? (move.moved_files / move.total_files) * 100 : 0;
  return (
    <Stack gap="sm" maw={640}>
      <Text fz="sm">{t("storage.move_text")}</Text>
      {overview.files_elsewhere > 0 ? (
        <Text fz="sm" data-testid="files-elsewhere">
          {t("storage.files_elsewhere", { count: overview.files_elsewhere })}
        </Text>
      ) : (
        <Text fz="sm" c="dimmed">
          {t("storage.nothing_to_move")}
        </Text>
      )}
      {move && running ? (
        <Stack gap={4}>
          <Progress value={percent} animated aria-label={t("storage.move_title")} />
          <Text fz="sm">
            {t("storage.move_progress", {
              moved: move.moved_files,
              count: move.total_files,
              movedBytes: formatBytes(move.moved_bytes),
              totalBytes: formatBytes(move.total_bytes),
            })}
          </Text>
        </Stack>
      ) : null}
      {move?.state === "done" ? (
        <Alert color="green" variant="light">
          {t("storage.move_done", { count: move.total_files })}
        </Alert>
      ) : null}
      {move?.state === "failed" ? (
        <Alert color="red" variant="light">
          {t("storage.move_failed", { error: move.error })}
        </Alert>
      ) : null}
      {overview.files_elsewhere > 0 && !running ? (
        <Button
          variant="default"
          style={{ alignSelf: "flex-start" }}
          loading={start.isPending}
          onClick={() => start.mutate()}
        >
          {t("storage.move_start")}
        </Button>
      ) : null}
    </Stack>
  );
}
