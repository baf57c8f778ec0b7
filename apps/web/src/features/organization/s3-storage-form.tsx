import { Button, Checkbox, PasswordInput, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { type CustomStorage, saveCustomStorage, storageKeys } from "../../api/storage.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";

const FIELDS = [
  "endpoint",
  "region",
  "bucket",
  "prefix",
  "path_style",
  "access_key_id",
  "secret_access_key",
] as const;

/** An S3-compatible bucket (AWS, MinIO, R2, Wasabi, Spaces). The server tests it before saving. */
export function S3StorageForm({ orgId, saved }: { orgId: number; saved: CustomStorage }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const [form, setForm] = useState({
    endpoint: saved.endpoint,
    region: saved.region || "us-east-1",
    bucket: saved.bucket,
    prefix: saved.prefix,
    path_style: saved.path_style,
    access_key_id: saved.access_key_id,
    secret_access_key: "",
  });
  const save = useMutation({
    mutationFn: () => saveCustomStorage(orgId, { ...form, endpoint: form.endpoint.trim() }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: storageKeys.all(orgId) });
      setForm((current) => ({ ...current, secret_access_key: "" }));
      alerts.show({ type: "success", message: t("storage.saved") });
    },
    onError: formErrors.showError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };
  const text = (field: "endpoint" | "region" | "bucket" | "prefix" | "access_key_id") => ({
    value: form[field],
    onChange: (event: { currentTarget: { value: string } }) =>
      setForm({ ...form, [field]: event.currentTarget.value }),
    error: formErrors.errors.fields[field],
  });
  return (
    <form onSubmit={submit} aria-label={t("storage.tab_s3")}>
      <Stack gap="md" maw={640}>
        <FormAlert state={formErrors} />
        <TextInput
          label={t("storage.endpoint")}
          description={t("storage.endpoint_hint")}
          placeholder="https://"
          {...text("endpoint")}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t("storage.bucket")} required {...text("bucket")} />
          <TextInput label={t("storage.region")} {...text("region")} />
        </SimpleGrid>
        <TextInput label={t("storage.prefix")} description={t("storage.prefix_hint")} {...text("prefix")} />
        <Checkbox
          label={t("storage.path_style")}
          checked={form.path_style}
          onChange={(event) => setForm({ ...form, path_style: event.currentTarget.checked })}
          error={formErrors.errors.fields.path_style}
        />
        <TextInput
          label={t("storage.access_key_id")}
          required
          autoComplete="off"
          {...text("access_key_id")}
        />
        <PasswordInput
          label={t("storage.secret_access_key")}
          required={!saved.secret_access_key_set}
          description={saved.secret_access_key_set ? t("storage.secret_saved") : undefined}
          autoComplete="new-password"
          value={form.secret_access_key}
          onChange={(event) => setForm({ ...form, secret_access_key: event.currentTarget.value })}
          error={formErrors.errors.fields.secret_access_key}
        />
        <Button type="submit" loading={save.isPending} style={{ alignSelf: "flex-start" }}>
          {save.isPending ? t("storage.testing") : t("storage.save_and_use")}
        </Button>
      </Stack>
    </form>
  );
}
