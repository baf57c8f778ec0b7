// "Sign" on an Android version: signs the APK (or converts the AAB) with the app's key and
// follows the task until the installable APK is there.
import { Alert, Button, Group, Loader, Modal, Stack, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { fetchBuildSigning, signingKeys, startBuildSigning } from "../../../api/android-signing.ts";
import { applicationKeys, fetchUploadTask, type Version } from "../../../api/applications.ts";
import { ApiError } from "../../../api/client.ts";
import { describeError } from "../../../ui/error-text.ts";

/** Spec §9: task status is polled every 5 seconds. */
const POLL_MS = 5000;

/** Spec §8 errors 8 and 9 by code, else the server's words. */
function taskError(code: number | null, detail: string, t: (key: string) => string): string {
  if (code === 8) return t("YOU HAVE NOT CONFIGURED YOUR ANDROID APP BUNDLE CONFIGURATION");
  if (code === 9) return t("FAILED TO CONVERT FILE AAB TO APK");
  return detail || t("errors.server");
}

export function isSignable(version: Version): boolean {
  return version.app_type === 0 && /\.(apk|aab)$/i.test(version.file_name);
}

export function SignBuildDialog({ version, onClose }: { version: Version | null; onClose: () => void }) {
  return (
    <Modal opened={version !== null} onClose={onClose} title={<SignTitle version={version} />} size="md">
      {version ? <SignBuild key={version.id} version={version} onClose={onClose} /> : null}
    </Modal>
  );
}

function SignTitle({ version }: { version: Version | null }) {
  const { t } = useTranslation();
  return <>{t("signing.sign_title", { version: version?.version ?? "" })}</>;
}

function SignBuild({ version, onClose }: { version: Version; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const state = useQuery({
    queryKey: signingKeys.build(version.id),
    queryFn: () => fetchBuildSigning(version.id),
  });
  const start = useMutation({
    mutationFn: () => startBuildSigning(version.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: signingKeys.build(version.id) }),
  });
  const taskId = start.data?.task_id ?? state.data?.task_id ?? null;
  const running = state.data?.state === "PENDING" || state.data?.state === "STARTED" || start.isSuccess;
  const task = useQuery({
    queryKey: ["upload-task", taskId],
    queryFn: () => fetchUploadTask(taskId as string),
    enabled: taskId !== null && running,
    refetchInterval: (query) => {
      const current = query.state.data?.state;
      return current === "SUCCESS" || current === "FAILURE" ? false : POLL_MS;
    },
  });
  const taskState = task.data?.state ?? (start.isSuccess ? "PENDING" : state.data?.state) ?? null;
  const finished = taskState === "SUCCESS" || taskState === "FAILURE";
  // Once per finished task: the version now offers its installable APK.
  const finishedTask = finished && task.data ? task.data.task_id : null;
  useEffect(() => {
    if (finishedTask) void queryClient.invalidateQueries({ queryKey: applicationKeys.all() });
  }, [finishedTask, queryClient]);
  const errorCode = task.data?.error_code ?? state.data?.error_code ?? null;
  const startError =
    start.error instanceof ApiError && (start.error.body as { error_code?: number })?.error_code
      ? taskError((start.error.body as { error_code: number }).error_code, "", t)
      : start.error
        ? describeError(start.error, t)
        : null;
  const isBundle = /\.aab$/i.test(version.file_name);

  return (
    <Stack gap="sm">
      <Text fz="sm">{isBundle ? t("signing.explain_aab") : t("signing.explain_apk")}</Text>
      {state.data?.internal_testing_only ? (
        <Alert color="yellow" title={t("signing.internal_only_title")}>
          {t("signing.internal_only")}
        </Alert>
      ) : null}
      {taskState === "PENDING" || taskState === "STARTED" ? (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text fz="sm">{t(taskState === "PENDING" ? "signing.waiting" : "signing.running")}</Text>
        </Group>
      ) : null}
      {taskState === "SUCCESS" ? (
        <Alert color="green" role="status">
          {t("signing.done")}
        </Alert>
      ) : null}
      {taskState === "FAILURE" ? (
        <Alert color="red" role="alert">
          {taskError(errorCode, task.data?.detail ?? state.data?.detail ?? "", t)}
        </Alert>
      ) : null}
      {startError ? (
        <Alert color="red" role="alert">
          {startError}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t("signing.close")}
        </Button>
        <Button
          loading={start.isPending}
          disabled={(running && !finished) || state.isPending}
          onClick={() => !start.isPending && start.mutate()}
        >
          {taskState === "SUCCESS" || taskState === "FAILURE" ? t("signing.sign_again") : t("signing.sign")}
        </Button>
      </Group>
    </Stack>
  );
}
