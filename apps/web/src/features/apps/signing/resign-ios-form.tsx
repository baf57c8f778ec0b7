// The iOS part of a version's "Sign" action: a .p12 with its password, provisioning profiles,
// optional entitlements and bundle ids to rewrite. The server checks the set-up first (error 8
// says what does not fit); the signing runs as a task whose progress is shown here until the
// new version is there.
import { Alert, Button, FileInput, Group, Loader, PasswordInput, Stack, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { applicationKeys, fetchUploadTask, type Version } from "../../../api/applications.ts";
import { iosSigningKeys, startIosResign } from "../../../api/ios-signing.ts";
import { describeError } from "../../../ui/error-text.ts";
import { type BundleIdPair, BundleIdRows, bundleIdMapping } from "./bundle-id-rows.tsx";

export const RESIGN_POLL_MS = 5000;

export function ResignIosForm({ version, onDone }: { version: Version; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [p12, setP12] = useState<File | null>(null);
  const [password, setPassword] = useState("");
  const [profiles, setProfiles] = useState<File[]>([]);
  const [entitlements, setEntitlements] = useState<File | null>(null);
  const [pairs, setPairs] = useState<BundleIdPair[]>([]);
  const [missing, setMissing] = useState(false);
  const [taskId, setTaskId] = useState<string | null>(null);

  const start = useMutation({
    mutationFn: () =>
      startIosResign({
        buildId: version.id,
        p12: p12 as File,
        password,
        profiles,
        entitlements,
        bundleIds: bundleIdMapping(pairs),
      }),
    onSuccess: (accepted) => setTaskId(accepted.task_id),
  });
  const task = useQuery({
    queryKey: ["upload-task", taskId],
    queryFn: () => fetchUploadTask(taskId as string),
    enabled: taskId !== null,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === "SUCCESS" || state === "FAILURE" ? false : RESIGN_POLL_MS;
    },
  });
  const state = taskId ? (task.data?.state ?? "PENDING") : null;
  const finished = state === "SUCCESS" || state === "FAILURE";
  // The new version appears in the list once the task says it is there.
  useEffect(() => {
    if (state !== "SUCCESS") return;
    void queryClient.invalidateQueries({ queryKey: applicationKeys.all() });
    void queryClient.invalidateQueries({ queryKey: iosSigningKeys.history(version.id) });
  }, [state, queryClient, version.id]);
  const busy = start.isPending || (taskId !== null && !finished);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const incomplete = !p12 || profiles.length === 0;
    setMissing(incomplete);
    if (incomplete) return;
    setTaskId(null);
    start.mutate();
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t("resign_ios.title")}>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          {t("resign_ios.intro")}
        </Text>
        <FileInput
          label={t("resign_ios.p12")}
          accept=".p12,.pfx"
          required
          clearable
          value={p12}
          disabled={busy}
          error={missing && !p12 ? t("resign_ios.p12_required") : undefined}
          onChange={setP12}
        />
        <PasswordInput
          label={t("resign_ios.password")}
          value={password}
          disabled={busy}
          autoComplete="off"
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <FileInput
          label={t("resign_ios.profiles")}
          description={t("resign_ios.profiles_hint")}
          accept=".mobileprovision"
          multiple
          required
          clearable
          value={profiles}
          disabled={busy}
          error={missing && profiles.length === 0 ? t("resign_ios.profiles_required") : undefined}
          onChange={setProfiles}
        />
        <FileInput
          label={t("resign_ios.entitlements")}
          description={t("resign_ios.entitlements_hint")}
          accept=".plist,.entitlements,.xml"
          clearable
          value={entitlements}
          disabled={busy}
          onChange={setEntitlements}
        />
        <BundleIdRows pairs={pairs} onChange={setPairs} disabled={busy} />
        {start.isError ? (
          <Alert color="red" role="alert">
            {describeError(start.error, t)}
          </Alert>
        ) : null}
        {state ? <TaskState state={state} detail={task.data?.detail ?? ""} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={start.isPending}>
            {finished ? t("alert.close") : t("common.cancel")}
          </Button>
          <Button type="submit" loading={busy}>
            {t("resign_ios.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function TaskState({ state, detail }: { state: string; detail: string }) {
  const { t } = useTranslation();
  if (state === "SUCCESS") {
    return (
      <Alert color="green" role="status">
        {t("resign_ios.state_success")}
      </Alert>
    );
  }
  if (state === "FAILURE") {
    return (
      <Alert color="red" role="alert" title={t("resign_ios.state_failure")}>
        {detail}
      </Alert>
    );
  }
  return (
    <Group gap="xs" role="status">
      <Loader size="xs" />
      <Text fz="sm">{t(state === "STARTED" ? "resign_ios.state_started" : "resign_ios.state_pending")}</Text>
    </Group>
  );
}
