// Organization → Sign-on: OpenID Connect or SAML with the company's identity provider, "Require SSO",
// the e-mail domains the organization proves, and the sessions its sign-in made.
import { Button, Group, PasswordInput, SimpleGrid, Stack, Tabs, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import { isAdminRole } from "../../api/roles.ts";
import { clearOidc, fetchOidc, type OidcSettings, samlKinds, saveOidc, ssoKeys } from "../../api/sso.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageFrame, ProfileGate, Section } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { SamlSettingsPanel } from "./saml-form.tsx";
import { CopyLine, SignOnRules } from "./sign-on-rules.tsx";
import { SsoDomainsSection } from "./sso-domains-section.tsx";
import { SsoSessionsSection } from "./sso-sessions-section.tsx";

const FIELDS = [
  "issuer",
  "client_id",
  "client_secret",
  "scopes",
  "enabled",
  "default_role",
  "allowed_domains",
  "require_sso",
] as const;

export function SignOnPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("sign_on.title")} description={t("sign_on.description")}>
      <ProfileGate needsOrg allow={isAdminRole}>
        {(_profile, org) => (org ? <SignOnSettings org={org} /> : null)}
      </ProfileGate>
    </PageFrame>
  );
}

function SignOnSettings({ org }: { org: OrgData }) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: ssoKeys.oidc(org.org_id), queryFn: () => fetchOidc(org.org_id) });
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  return (
    <>
      <Tabs defaultValue="oidc" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="oidc">{t("sign_on.oidc_title")}</Tabs.Tab>
          {samlKinds.map((kind) => (
            <Tabs.Tab key={kind} value={kind}>
              {t(`sign_on.kinds.${kind}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="oidc" pt="md">
          <OidcForm key={query.data.updated_at ?? "new"} orgId={org.org_id} saved={query.data} />
        </Tabs.Panel>
        {samlKinds.map((kind) => (
          <Tabs.Panel key={kind} value={kind} pt="md">
            <Section title={t(`sign_on.kinds.${kind}`)}>
              <SamlSettingsPanel orgId={org.org_id} kind={kind} />
            </Section>
          </Tabs.Panel>
        ))}
      </Tabs>
      <SsoDomainsSection orgId={org.org_id} />
      <SsoSessionsSection orgId={org.org_id} />
    </>
  );
}

function OidcForm({ orgId, saved }: { orgId: number; saved: OidcSettings }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const [confirming, setConfirming] = useState(false);
  const [form, setForm] = useState({
    issuer: saved.issuer,
    client_id: saved.client_id,
    client_secret: "",
    scopes: saved.scopes,
    enabled: saved.configured ? saved.enabled : true,
    default_role: String(saved.default_role),
    allowed_domains: saved.allowed_domains,
    require_sso: saved.require_sso,
  });
  const done = (next: OidcSettings, message: string) => {
    queryClient.setQueryData(ssoKeys.oidc(orgId), next);
    alerts.show({ type: "success", message });
  };
  const save = useMutation({
    mutationFn: () =>
      saveOidc(orgId, {
        ...form,
        default_role: Number(form.default_role) as 2 | 3 | 4 | 5,
      }),
    onSuccess: (next) => done(next, t("sign_on.saved")),
    onError: formErrors.showError,
  });
  const clear = useMutation({
    mutationFn: () => clearOidc(orgId),
    onSuccess: (next) => {
      setConfirming(false);
      done(next, t("sign_on.cleared"));
    },
    onError: formErrors.showError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };
  const text = (field: "issuer" | "client_id" | "scopes") => ({
    value: form[field],
    onChange: (event: { currentTarget: { value: string } }) =>
      setForm({ ...form, [field]: event.currentTarget.value }),
    error: formErrors.errors.fields[field],
  });
  return (
    <Section title={t("sign_on.oidc_title")}>
      <Text data-testid="sign-on-status">
        {saved.configured && saved.enabled
          ? t("sign_on.status_on", { issuer: saved.issuer })
          : t("sign_on.status_off")}
      </Text>
      <Stack gap={4}>
        <CopyLine label={t("sign_on.redirect_uri")} value={saved.redirect_uri} testId="redirect-uri" />
        <CopyLine label={t("sign_on.login_url")} value={saved.login_url} />
      </Stack>
      <form onSubmit={submit} aria-label={t("sign_on.oidc_title")}>
        <Stack gap="md" maw={720}>
          <FormAlert state={formErrors} />
          <TextInput
            label={t("sign_on.issuer")}
            description={t("sign_on.issuer_hint")}
            required
            {...text("issuer")}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t("sign_on.client_id")} required autoComplete="off" {...text("client_id")} />
            <PasswordInput
              label={t("sign_on.client_secret")}
              description={saved.client_secret_set ? t("sign_on.secret_saved") : undefined}
              autoComplete="new-password"
              required={!saved.client_secret_set}
              value={form.client_secret}
              onChange={(event) => setForm({ ...form, client_secret: event.currentTarget.value })}
              error={formErrors.errors.fields.client_secret}
            />
          </SimpleGrid>
          <TextInput label={t("sign_on.scopes")} {...text("scopes")} />
          <SignOnRules
            value={form}
            onChange={(change) => setForm({ ...form, ...change })}
            errors={formErrors.errors.fields}
          />
          <Group gap="sm">
            <Button type="submit" loading={save.isPending}>
              {save.isPending ? t("sign_on.checking") : t("sign_on.save")}
            </Button>
            {saved.configured ? (
              <Button variant="subtle" color="red" onClick={() => setConfirming(true)}>
                {t("sign_on.clear")}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={confirming}
        title={t("sign_on.clear")}
        message={t("sign_on.clear_confirm")}
        confirmLabel={t("sign_on.clear")}
        busy={clear.isPending}
        onConfirm={() => clear.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Section>
  );
}
