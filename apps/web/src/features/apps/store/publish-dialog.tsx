// "Publish to store" on a build: the account, track or beta groups and notes, the checks, then live progress.
import {
  Alert,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApplicationRecord, Version } from "../../../api/applications.ts";
import {
  checkStoreUpload,
  listDeveloperAccounts,
  type StoreKind,
  startStoreUpload,
  storeForAppType,
  storeKeys,
} from "../../../api/store.ts";
import { FormAlert } from "../../../ui/forms/form-alert.tsx";
import { FormDialogActions } from "../../../ui/forms/form-dialog-actions.tsx";
import { useFormErrors } from "../../../ui/forms/use-form-errors.ts";
import { PageLoader } from "../../../ui/page-loader.tsx";
import { StoreUploadProgress } from "./store-upload-progress.tsx";

const FIELDS = ["integration_id", "uid", "release_notes", "track", "rollout", "language", "groups"] as const;
const TRACKS = ["internal", "alpha", "beta", "production"] as const;

export function PublishDialog({
  app,
  version,
  onClose,
}: {
  app: ApplicationRecord;
  version: Version | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const store = storeForAppType(app.app_type);
  const [taskId, setTaskId] = useState<string | null>(null);
  useEffect(() => {
    if (version) setTaskId(null);
  }, [version]);
  if (!store) return null;
  return (
    <Modal
      opened={version !== null}
      onClose={onClose}
      size="lg"
      title={t(`store.${store}.publish_title`, { version: version?.version ?? "" })}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      {version && taskId ? <StoreUploadProgress store={store} taskId={taskId} /> : null}
      {version && !taskId ? (
        <PublishForm app={app} version={version} store={store} onStarted={setTaskId} onCancel={onClose} />
      ) : null}
    </Modal>
  );
}

function PublishForm({
  app,
  version,
  store,
  onStarted,
  onCancel,
}: {
  app: ApplicationRecord;
  version: Version;
  store: StoreKind;
  onStarted: (taskId: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const accounts = useQuery({
    queryKey: storeKeys.accounts(app.organization, store),
    queryFn: () => listDeveloperAccounts(app.organization, store),
  });
  const [accountId, setAccountId] = useState<string | null>(null);
  const [form, setForm] = useState({
    release_notes: version.whats_new,
    track: "internal",
    rollout: 100,
    language: "en-US",
    groups: "",
  });
  const chosen = accountId ?? (accounts.data?.[0] ? String(accounts.data[0].id) : null);
  const check = useQuery({
    queryKey: storeKeys.check(store, Number(chosen), version.id),
    queryFn: () =>
      checkStoreUpload(store, { integration_id: Number(chosen), app_id: app.id, uid: version.id }),
    enabled: chosen !== null,
  });
  const start = useMutation({
    mutationFn: () =>
      startStoreUpload(store, {
        uid: version.id,
        app_id: app.id,
        integration_id: Number(chosen),
        release_notes: form.release_notes,
        ...(store === "google_play"
          ? { track: form.track, rollout: form.rollout, language: form.language }
          : { groups: form.groups }),
      }),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: storeKeys.history(app.id) });
      onStarted(answer.task_id);
    },
    onError: formErrors.showError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    if (chosen && !start.isPending) start.mutate();
  };
  if (accounts.isPending) return <PageLoader />;
  if (!accounts.data?.length) return <Text c="dimmed">{t(`store.${store}.no_account`)}</Text>;
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <FormAlert state={formErrors} />
        <Select
          label={t("store.account")}
          data={accounts.data.map((account) => ({ value: String(account.id), label: account.key_name }))}
          value={chosen}
          onChange={setAccountId}
          allowDeselect={false}
          error={formErrors.errors.fields.integration_id}
        />
        <StoreChecks loading={check.isFetching} result={check.data ?? null} failed={check.isError} />
        {store === "google_play" ? (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label={t("store.track")}
              data={TRACKS.map((value) => ({ value, label: t(`store.tracks.${value}`) }))}
              value={form.track}
              onChange={(value) => setForm({ ...form, track: value ?? "internal" })}
              allowDeselect={false}
              error={formErrors.errors.fields.track}
            />
            <NumberInput
              label={t("store.rollout")}
              min={0.01}
              max={100}
              decimalScale={2}
              suffix=" %"
              value={form.rollout}
              onChange={(value) => setForm({ ...form, rollout: Number(value) || 100 })}
              error={formErrors.errors.fields.rollout}
            />
            <TextInput
              label={t("store.language")}
              value={form.language}
              onChange={(event) => setForm({ ...form, language: event.currentTarget.value })}
              error={formErrors.errors.fields.language}
            />
          </SimpleGrid>
        ) : (
          <TextInput
            label={t("store.groups")}
            description={t("store.groups_hint")}
            value={form.groups}
            onChange={(event) => setForm({ ...form, groups: event.currentTarget.value })}
            error={formErrors.errors.fields.groups}
          />
        )}
        <Textarea
          label={t(`store.${store}.notes`)}
          value={form.release_notes}
          rows={4}
          maxLength={4000}
          onChange={(event) => setForm({ ...form, release_notes: event.currentTarget.value })}
          error={formErrors.errors.fields.release_notes}
        />
        <FormDialogActions onCancel={onCancel} busy={start.isPending} submitLabel={t("store.publish")} />
      </Stack>
    </form>
  );
}

function StoreChecks({
  loading,
  result,
  failed,
}: {
  loading: boolean;
  result: { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] } | null;
  failed: boolean;
}) {
  const { t } = useTranslation();
  if (loading) return <Text fz="sm">{t("store.checking")}</Text>;
  if (failed || !result) return null;
  return (
    <Alert
      color={result.ok ? "green" : "red"}
      title={result.ok ? t("store.checks_ok") : t("store.checks_failed")}
    >
      <Stack gap={2} data-testid="store-checks">
        {result.checks.map((check) => (
          <Text key={check.name} fz="sm">
            {check.ok ? "✓" : "✗"} {t(`store.check_names.${check.name}`)}: {check.detail}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
