// The app's Android signing key: the keystore form, and which key signs its builds now.
import {
  Alert,
  Button,
  FileInput,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type AppKeystore,
  fetchAppKeystore,
  saveAppKeystore,
  signingKeys,
} from "../../../api/android-signing.ts";
import type { ApplicationRecord } from "../../../api/applications.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { formatDateTime } from "../../../ui/format/date.ts";
import { FormAlert } from "../../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageLoader } from "../../../ui/page-loader.tsx";

const FIELDS = ["keystore_file", "store_password", "key_alias", "key_password"] as const;
type Certificate = NonNullable<AppKeystore["certificate"]>;

export function KeystoreTab({ app }: { app: ApplicationRecord }) {
  const query = useQuery({
    queryKey: signingKeys.appKeystore(app.id),
    queryFn: () => fetchAppKeystore(app.id),
  });
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  return (
    <Stack gap="lg" maw={720}>
      <CurrentKey keystore={query.data} />
      <KeystoreForm appId={app.id} />
    </Stack>
  );
}

function CertificateLines({ certificate }: { certificate: Certificate }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack gap={2}>
      <Text fz="sm">{certificate.subject}</Text>
      <Text fz="xs" ff="monospace" style={{ wordBreak: "break-all" }}>
        SHA-256: {certificate.sha256}
      </Text>
      <Text fz="xs" c="dimmed">
        {t("signing.valid", {
          from: formatDateTime(certificate.valid_from, i18n.language),
          until: formatDateTime(certificate.valid_until, i18n.language),
        })}
      </Text>
    </Stack>
  );
}

function CurrentKey({ keystore }: { keystore: AppKeystore }) {
  const { t } = useTranslation();
  const source = keystore.effective_source;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={4}>{t("signing.current_title")}</Title>
        <Text fz="sm">{source ? t(`signing.sources.${source}`) : t("signing.sources.none")}</Text>
        {keystore.certificate ? (
          <>
            <Text fz="sm" fw={600}>
              {t("signing.own_keystore", { file: keystore.file_name, alias: keystore.key_alias })}
            </Text>
            <CertificateLines certificate={keystore.certificate} />
          </>
        ) : keystore.effective_certificate ? (
          <CertificateLines certificate={keystore.effective_certificate} />
        ) : null}
        {keystore.internal_testing_only ? (
          <Alert color="yellow" title={t("signing.internal_only_title")}>
            {t("signing.internal_only")}
          </Alert>
        ) : null}
        {keystore.warnings.map((warning) => (
          <Alert key={warning} color="orange" role="alert">
            {warning}
          </Alert>
        ))}
      </Stack>
    </Paper>
  );
}

function KeystoreForm({ appId }: { appId: number }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const [file, setFile] = useState<File | null>(null);
  const [storePassword, setStorePassword] = useState("");
  const [keyAlias, setKeyAlias] = useState("");
  const [keyPassword, setKeyPassword] = useState("");
  const save = useMutation({
    mutationFn: () => saveAppKeystore(appId, { file: file as File, storePassword, keyAlias, keyPassword }),
    onSuccess: (saved) => {
      // The answer carries warnings (another signer than the current build's) that a refetch would not.
      queryClient.setQueryData(signingKeys.appKeystore(appId), saved);
      setFile(null);
      setStorePassword("");
      setKeyPassword("");
      alerts.show({ type: "success", message: t("signing.saved") });
    },
    onError: formErrors.showError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    if (!file) {
      formErrors.showGeneral(t("signing.file_required"));
      return;
    }
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={t("signing.form_title")}>
      <Stack gap="md">
        <Title order={4}>{t("signing.form_title")}</Title>
        <Text fz="sm" c="dimmed">
          {t("signing.form_hint")}
        </Text>
        <FormAlert state={formErrors} />
        <FileInput
          label={t("signing.keystore_file")}
          description={t("signing.keystore_file_hint")}
          required
          accept=".jks,.keystore,.p12,.pfx,application/x-pkcs12"
          value={file}
          onChange={setFile}
          clearable
          error={formErrors.errors.fields.keystore_file}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PasswordInput
            label={t("signing.store_password")}
            required
            autoComplete="off"
            value={storePassword}
            onChange={(event) => setStorePassword(event.currentTarget.value)}
            error={formErrors.errors.fields.store_password}
          />
          <TextInput
            label={t("signing.key_alias")}
            required
            value={keyAlias}
            onChange={(event) => setKeyAlias(event.currentTarget.value)}
            error={formErrors.errors.fields.key_alias}
          />
          <PasswordInput
            label={t("signing.key_password")}
            description={t("signing.key_password_hint")}
            autoComplete="off"
            value={keyPassword}
            onChange={(event) => setKeyPassword(event.currentTarget.value)}
            error={formErrors.errors.fields.key_password}
          />
        </SimpleGrid>
        <Button type="submit" loading={save.isPending} style={{ alignSelf: "flex-start" }}>
          {save.isPending ? t("signing.checking") : t("signing.save")}
        </Button>
      </Stack>
    </form>
  );
}
