// One SAML identity provider (Okta, Google Workspace, Entra ID, custom): what to paste into the
// IdP, and its metadata with the sign-in rules.
import { Button, FileInput, Group, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchSaml, type SamlKind, type SamlSettings, samlKeys, saveSaml } from "../../api/sso.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { formatDateTime } from "../../ui/format/date.ts";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { CopyLine, SignOnRules } from "./sign-on-rules.tsx";

const FIELDS = [
  "metadata",
  "metadata_url",
  "certificate_file",
  "private_key_file",
  "enabled",
  "default_role",
  "allowed_domains",
  "require_sso",
] as const;

export function SamlSettingsPanel({ orgId, kind }: { orgId: number; kind: SamlKind }) {
  const query = useQuery({ queryKey: samlKeys.detail(orgId, kind), queryFn: () => fetchSaml(orgId, kind) });
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  return <SamlForm key={query.data.updated_at ?? "new"} orgId={orgId} kind={kind} saved={query.data} />;
}

function SamlForm({ orgId, kind, saved }: { orgId: number; kind: SamlKind; saved: SamlSettings }) {
  const { t, i18n } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const [form, setForm] = useState({
    metadataFile: null as File | null,
    metadataUrl: saved.metadata_url,
    certificateFile: null as File | null,
    privateKeyFile: null as File | null,
    enabled: saved.configured ? saved.enabled : true,
    default_role: String(saved.default_role),
    allowed_domains: saved.allowed_domains,
    require_sso: saved.require_sso,
  });
  const save = useMutation({
    mutationFn: () => saveSaml(orgId, kind, form),
    onSuccess: (next) => {
      queryClient.setQueryData(samlKeys.detail(orgId, kind), next);
      alerts.show({ type: "success", message: t("sign_on.saved") });
    },
    onError: formErrors.showError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };
  const name = t(`sign_on.kinds.${kind}`);
  return (
    <Stack gap="md">
      <Text data-testid={`saml-status-${kind}`}>
        {saved.configured && saved.enabled
          ? t("sign_on.saml_status_on", { idp: saved.idp_entity_id })
          : t("sign_on.status_off")}
      </Text>
      {saved.idp_certificate_expires ? (
        <Text fz="sm" c="dimmed">
          {t("sign_on.certificate_expires", {
            date: formatDateTime(saved.idp_certificate_expires, i18n.language),
          })}
        </Text>
      ) : null}
      <Stack gap={4}>
        <CopyLine label={t("sign_on.sp_entity_id")} value={saved.sp_entity_id} />
        <CopyLine label={t("sign_on.acs_url")} value={saved.acs_url} />
        <CopyLine label={t("sign_on.sp_metadata_url")} value={saved.sp_metadata_url} />
      </Stack>
      <form onSubmit={submit} aria-label={name}>
        <Stack gap="md" maw={720}>
          <FormAlert state={formErrors} />
          <FileInput
            label={t("sign_on.metadata_file")}
            description={saved.configured ? t("sign_on.metadata_saved") : t("sign_on.metadata_hint")}
            accept=".xml,application/xml,text/xml"
            clearable
            value={form.metadataFile}
            onChange={(file) => setForm({ ...form, metadataFile: file })}
            error={formErrors.errors.fields.metadata}
          />
          <TextInput
            label={t("sign_on.metadata_url")}
            type="url"
            value={form.metadataUrl}
            onChange={(event) => setForm({ ...form, metadataUrl: event.currentTarget.value })}
            error={formErrors.errors.fields.metadata_url}
          />
          <Group grow align="flex-start">
            <FileInput
              label={t("sign_on.sp_certificate")}
              description={saved.sp_certificate_set ? t("sign_on.file_saved") : t("sign_on.optional")}
              clearable
              value={form.certificateFile}
              onChange={(file) => setForm({ ...form, certificateFile: file })}
              error={formErrors.errors.fields.certificate_file}
            />
            <FileInput
              label={t("sign_on.sp_private_key")}
              description={saved.sp_private_key_set ? t("sign_on.file_saved") : t("sign_on.optional")}
              clearable
              value={form.privateKeyFile}
              onChange={(file) => setForm({ ...form, privateKeyFile: file })}
              error={formErrors.errors.fields.private_key_file}
            />
          </Group>
          <SignOnRules
            value={form}
            onChange={(change) => setForm({ ...form, ...change })}
            errors={formErrors.errors.fields}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t("sign_on.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
