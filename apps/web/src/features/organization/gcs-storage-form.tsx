import { Button, FileInput, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { type GoogleCloudStorage, saveGoogleCloudStorage, storageKeys } from "../../api/storage.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";

const FIELDS = ["bucket", "prefix", "gcs_credentials"] as const;

/** A Google Cloud Storage bucket and the service account's key file. The server tests it first. */
export function GcsStorageForm({ orgId, saved }: { orgId: number; saved: GoogleCloudStorage }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const [bucket, setBucket] = useState(saved.bucket);
  const [prefix, setPrefix] = useState(saved.prefix);
  const [keyFile, setKeyFile] = useState<File | null>(null);
  const save = useMutation({
    mutationFn: () =>
      saveGoogleCloudStorage(orgId, { bucket: bucket.trim(), prefix: prefix.trim(), keyFile }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: storageKeys.all(orgId) });
      setKeyFile(null);
      alerts.show({ type: "success", message: t("storage.saved") });
    },
    onError: formErrors.showError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={t("storage.tab_gcs")}>
      <Stack gap="md" maw={640}>
        <FormAlert state={formErrors} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t("storage.bucket")}
            required
            value={bucket}
            onChange={(event) => setBucket(event.currentTarget.value)}
            error={formErrors.errors.fields.bucket}
          />
          <TextInput
            label={t("storage.prefix")}
            description={t("storage.prefix_hint")}
            value={prefix}
            onChange={(event) => setPrefix(event.currentTarget.value)}
            error={formErrors.errors.fields.prefix}
          />
        </SimpleGrid>
        <FileInput
          label={t("storage.key_file")}
          description={
            saved.gcs_credentials_set
              ? t("storage.key_saved", { email: saved.client_email, project: saved.project_id })
              : t("storage.key_file_hint")
          }
          required={!saved.gcs_credentials_set}
          accept="application/json,.json"
          value={keyFile}
          onChange={setKeyFile}
          clearable
          error={formErrors.errors.fields.gcs_credentials}
        />
        <Button type="submit" loading={save.isPending} style={{ alignSelf: "flex-start" }}>
          {save.isPending ? t("storage.testing") : t("storage.save_and_use")}
        </Button>
      </Stack>
    </form>
  );
}
