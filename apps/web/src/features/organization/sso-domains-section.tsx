// The organization's e-mail domains, each proven by a TXT record in its DNS: only a proven domain
// sends its people to the organization's sign-in, lets existing accounts link, and makes
// "Require single sign-on" apply to them.
import { Button, Group, Paper, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  addSsoDomain,
  fetchSsoDomains,
  removeSsoDomain,
  type SsoDomain,
  ssoDomainKeys,
} from "../../api/sso.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { Section } from "../../ui/page-frame.tsx";
import { DomainClaim } from "./sso-domain-claim.tsx";

const FIELDS = ["domain"] as const;

export function SsoDomainsSection({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: ssoDomainKeys.list(orgId), queryFn: () => fetchSsoDomains(orgId) });
  const [removing, setRemoving] = useState<SsoDomain | null>(null);
  return (
    <Section title={t("sign_on.domains_title")}>
      <Text fz="sm" c="dimmed">
        {t("sign_on.domains_intro")}
      </Text>
      <AddDomainForm orgId={orgId} />
      {query.isPending ? (
        <Text c="dimmed">{t("common.loading")}</Text>
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <Text c="dimmed">{t("sign_on.no_domains")}</Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
          {query.data.map((claim) => (
            <Paper key={claim.id} component="li" withBorder radius="md" p="md">
              <DomainClaim orgId={orgId} claim={claim} onRemove={() => setRemoving(claim)} />
            </Paper>
          ))}
        </Stack>
      )}
      <RemoveDomainDialog orgId={orgId} claim={removing} onClose={() => setRemoving(null)} />
    </Section>
  );
}

function AddDomainForm({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const [domain, setDomain] = useState("");
  const add = useMutation({
    mutationFn: (value: string) => addSsoDomain(orgId, value),
    onSuccess: (claim) => {
      setDomain("");
      queryClient.setQueryData<SsoDomain[]>(ssoDomainKeys.list(orgId), (list) => [...(list ?? []), claim]);
    },
    onError: formErrors.showError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    add.mutate(domain.trim());
  };
  return (
    <form onSubmit={submit} aria-label={t("sign_on.add_domain")}>
      <Stack gap="xs" maw={560}>
        <FormAlert state={formErrors} />
        <Group align="flex-start" gap="sm" wrap="nowrap">
          <TextInput
            label={t("sign_on.domain")}
            placeholder="example.com"
            required
            autoComplete="off"
            style={{ flex: 1 }}
            value={domain}
            onChange={(event) => setDomain(event.currentTarget.value)}
            error={formErrors.errors.fields.domain}
          />
          <Button type="submit" mt={25} loading={add.isPending}>
            {t("sign_on.add_domain")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RemoveDomainDialog({
  orgId,
  claim,
  onClose,
}: {
  orgId: number;
  claim: SsoDomain | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => removeSsoDomain(orgId, id),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<SsoDomain[]>(ssoDomainKeys.list(orgId), (list) =>
        (list ?? []).filter((item) => item.id !== id),
      );
      alerts.show({ type: "success", message: t("sign_on.domain_removed") });
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <ConfirmDialog
      opened={claim !== null}
      title={t("sign_on.remove_domain_title", { domain: claim?.domain ?? "" })}
      message={t("sign_on.remove_domain_confirm", { domain: claim?.domain ?? "" })}
      confirmLabel={t("sign_on.remove_domain")}
      busy={remove.isPending}
      onConfirm={() => claim && remove.mutate(claim.id)}
      onClose={onClose}
    />
  );
}
