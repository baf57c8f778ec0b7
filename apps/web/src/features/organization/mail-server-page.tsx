import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import {
  fetchMailServer,
  type MailServer,
  mailServerKeys,
  saveMailServer,
  sendTestMail,
} from "../../api/mail-server.ts";
import { isAdminRole } from "../../api/roles.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { describeError } from "../../ui/error-text.ts";
import { FieldRow } from "../../ui/forms/field-row.tsx";
import { FitSelect } from "../../ui/forms/fit-select.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageFrame, ProfileGate, Section } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";

const FIELDS = [
  "host",
  "port",
  "security",
  "username",
  "password",
  "from_name",
  "from_email",
  "reply_to",
  "enabled",
] as const;
const SECURITIES = ["starttls", "tls", "none"] as const;

export function MailServerPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("mail_server.title")} description={t("mail_server.description")}>
      <ProfileGate needsOrg allow={isAdminRole}>
        {(_profile, org) => (org ? <MailServerSettings org={org} /> : null)}
      </ProfileGate>
    </PageFrame>
  );
}

function MailServerSettings({ org }: { org: OrgData }) {
  const query = useQuery({
    queryKey: mailServerKeys.detail(org.org_id),
    queryFn: () => fetchMailServer(org.org_id),
  });
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  return <MailServerForm orgId={org.org_id} saved={query.data} />;
}

function MailServerForm({ orgId, saved }: { orgId: number; saved: MailServer }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const [form, setForm] = useState({
    host: saved.host,
    port: saved.port,
    security: saved.security,
    username: saved.username,
    password: "",
    from_name: saved.from_name,
    from_email: saved.from_email,
    reply_to: saved.reply_to,
    enabled: saved.configured ? saved.enabled : true,
  });
  const save = useMutation({
    mutationFn: () => saveMailServer(orgId, form),
    onSuccess: (next) => {
      queryClient.setQueryData(mailServerKeys.detail(orgId), next);
      setForm((current) => ({ ...current, password: "" }));
      alerts.show({ type: "success", message: t("mail_server.saved") });
    },
    onError: formErrors.showError,
  });
  const test = useMutation({
    mutationFn: () => sendTestMail(orgId),
    onSuccess: (answer) => alerts.show({ type: "success", message: answer.detail }),
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };
  const text = (field: "host" | "username" | "from_name" | "from_email" | "reply_to") => ({
    value: form[field],
    onChange: (event: { currentTarget: { value: string } }) =>
      setForm({ ...form, [field]: event.currentTarget.value }),
    error: formErrors.errors.fields[field],
  });
  return (
    <Section title={t("mail_server.title")}>
      <Text data-testid="mail-server-status">
        {saved.enabled ? t("mail_server.status_on", { host: saved.host }) : t("mail_server.status_off")}
      </Text>
      <form onSubmit={submit} aria-label={t("mail_server.title")}>
        <Stack gap="md" maw={640}>
          <FormAlert state={formErrors} />
          <FieldRow>
            <TextInput label={t("mail_server.host")} required {...text("host")} />
            <NumberInput
              label={t("mail_server.port")}
              required
              min={1}
              max={65535}
              value={form.port}
              onChange={(value) => setForm({ ...form, port: Number(value) || 0 })}
              error={formErrors.errors.fields.port}
            />
            <FitSelect
              label={t("mail_server.security")}
              data={SECURITIES.map((value) => ({ value, label: t(`mail_server.security_${value}`) }))}
              value={form.security}
              onChange={(value) =>
                setForm({ ...form, security: (value ?? "starttls") as MailServer["security"] })
              }
              allowDeselect={false}
              error={formErrors.errors.fields.security}
            />
          </FieldRow>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t("mail_server.username")} autoComplete="off" {...text("username")} />
            <PasswordInput
              label={t("mail_server.password")}
              description={saved.password_set ? t("mail_server.password_saved") : undefined}
              autoComplete="new-password"
              value={form.password}
              onChange={(event) => setForm({ ...form, password: event.currentTarget.value })}
              error={formErrors.errors.fields.password}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t("mail_server.from_name")} {...text("from_name")} />
            <TextInput label={t("mail_server.from_email")} type="email" required {...text("from_email")} />
          </SimpleGrid>
          <TextInput label={t("mail_server.reply_to")} type="email" {...text("reply_to")} />
          <Checkbox
            label={t("mail_server.enabled")}
            checked={form.enabled}
            onChange={(event) => setForm({ ...form, enabled: event.currentTarget.checked })}
          />
          <Group gap="sm">
            <Button type="submit" loading={save.isPending}>
              {save.isPending ? t("mail_server.checking") : t("mail_server.save")}
            </Button>
            {saved.configured ? (
              <Button variant="default" loading={test.isPending} onClick={() => test.mutate()}>
                {t("mail_server.send_test")}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
