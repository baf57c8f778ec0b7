import { Button, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { fetchOrganization, organizationKeys, updateOrganization } from "../../api/organizations.ts";
import { isAdminRole, ROLE_OWNER } from "../../api/roles.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageFrame, ProfileGate, Section } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { LogoUpload } from "./logo-upload.tsx";
import { DeleteOrganizationForm, TransferOwnershipForm } from "./owner-actions.tsx";
import { SdkKeySection } from "./sdk-key-section.tsx";

export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("settings.title")} description={t("settings.description")}>
      <ProfileGate needsOrg allow={isAdminRole}>
        {(_profile, org) => (org ? <Settings org={org} /> : null)}
      </ProfileGate>
    </PageFrame>
  );
}

function Settings({ org }: { org: OrgData }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: organizationKeys.detail(org.org_id),
    queryFn: () => fetchOrganization(org.org_id),
  });
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  const organization = query.data;
  return (
    <Stack gap="lg">
      <Section title={t("settings.general")}>
        <GeneralForm orgId={org.org_id} title={organization.title} subdomain={organization.subdomain} />
      </Section>
      <Section title={t("settings.logo")}>
        <LogoUpload orgId={org.org_id} logo={organization.logo} title={organization.title} />
      </Section>
      {organization.sdk_key ? (
        <Section title={t("sdk_key.title")}>
          <SdkKeySection orgId={org.org_id} sdkKey={organization.sdk_key} />
        </Section>
      ) : null}
      {org.role === ROLE_OWNER ? (
        <>
          <Section title={t("settings.transfer")}>
            <TransferOwnershipForm orgId={org.org_id} />
          </Section>
          <Section title={t("settings.delete")}>
            <DeleteOrganizationForm orgId={org.org_id} title={organization.title} />
          </Section>
        </>
      ) : null}
    </Stack>
  );
}

const GENERAL_FIELDS = ["title", "subdomain"] as const;

function GeneralForm({ orgId, title, subdomain }: { orgId: number; title: string; subdomain: string }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const { refreshProfile } = useDashboard();
  const [form, setForm] = useState({ title, subdomain });
  const formErrors = useFormErrors(GENERAL_FIELDS);

  useEffect(() => setForm({ title, subdomain }), [title, subdomain]);

  const save = useMutation({
    mutationFn: () =>
      updateOrganization(orgId, { title: form.title.trim(), subdomain: form.subdomain.trim() }),
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationKeys.detail(orgId), organization);
      void refreshProfile();
      alerts.show({ type: "success", message: t("settings.saved") });
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="md" maw={480}>
        <FormAlert state={formErrors} />
        <TextInput
          label={t("org.title_label")}
          required
          value={form.title}
          onChange={(event) => setForm({ ...form, title: event.currentTarget.value })}
          error={formErrors.errors.fields.title}
        />
        <TextInput
          label={t("org.subdomain_label")}
          description={t("org.subdomain_hint")}
          required
          value={form.subdomain}
          onChange={(event) => setForm({ ...form, subdomain: event.currentTarget.value })}
          error={formErrors.errors.fields.subdomain}
        />
        <Button type="submit" loading={save.isPending} style={{ alignSelf: "flex-start" }}>
          {t("common.save")}
        </Button>
      </Stack>
    </form>
  );
}
