// The organization's store developer accounts: App Store Connect API keys and Google Play service accounts.
import { Button, FileInput, Group, Paper, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import { isAdminRole } from "../../api/roles.ts";
import {
  addDeveloperAccount,
  type DeveloperAccount,
  deleteDeveloperAccount,
  listDeveloperAccounts,
  type StoreKind,
  storeKeys,
} from "../../api/store.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageFrame, ProfileGate, Section } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";

const FIELDS = ["key_name", "issuer_id", "key_id", "private_key_file"] as const;

export function StoreAccountsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("store.accounts_title")} description={t("store.accounts_description")}>
      <ProfileGate needsOrg allow={isAdminRole}>
        {(_profile, org) =>
          org ? (
            <Stack gap="xl">
              <StoreAccounts org={org} store="app_store" />
              <StoreAccounts org={org} store="google_play" />
            </Stack>
          ) : null
        }
      </ProfileGate>
    </PageFrame>
  );
}

function StoreAccounts({ org, store }: { org: OrgData; store: StoreKind }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: storeKeys.accounts(org.org_id, store),
    queryFn: () => listDeveloperAccounts(org.org_id, store),
  });
  const [deleting, setDeleting] = useState<DeveloperAccount | null>(null);
  return (
    <Section title={t(`store.${store}.title`)}>
      <Text fz="sm" c="dimmed">
        {t(`store.${store}.help`)}
      </Text>
      {query.isPending ? <PageLoader /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data?.length === 0 ? <Text c="dimmed">{t("store.no_accounts")}</Text> : null}
      <Stack gap="xs" data-testid={`store-accounts-${store}`}>
        {query.data?.map((account) => (
          <Paper key={account.id} withBorder p="sm" radius="md">
            <Group justify="space-between" wrap="nowrap">
              <div>
                <Text fw={600}>{account.key_name}</Text>
                <Text fz="sm" c="dimmed">
                  {store === "app_store"
                    ? t("store.app_store.key_line", { key: account.key_id, issuer: account.issuer_id })
                    : account.client_email}
                </Text>
              </div>
              <Button variant="subtle" color="red" onClick={() => setDeleting(account)}>
                {t("store.delete")}
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
      <AddAccountForm orgId={org.org_id} store={store} />
      <DeleteAccountDialog
        store={store}
        orgId={org.org_id}
        account={deleting}
        onClose={() => setDeleting(null)}
      />
    </Section>
  );
}

function AddAccountForm({ orgId, store }: { orgId: number; store: StoreKind }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const empty = { key_name: "", issuer_id: "", key_id: "" };
  const [form, setForm] = useState(empty);
  const [keyFile, setKeyFile] = useState<File | null>(null);
  const add = useMutation({
    mutationFn: () => addDeveloperAccount(store, { org: orgId, ...form, keyFile }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: storeKeys.allAccounts(orgId) });
      setForm(empty);
      setKeyFile(null);
      alerts.show({ type: "success", message: t("store.account_added") });
    },
    onError: formErrors.showError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    add.mutate();
  };
  const text = (field: "key_name" | "issuer_id" | "key_id") => ({
    value: form[field],
    onChange: (event: { currentTarget: { value: string } }) =>
      setForm({ ...form, [field]: event.currentTarget.value }),
    error: formErrors.errors.fields[field],
  });
  return (
    <form onSubmit={submit} aria-label={t(`store.${store}.add`)}>
      <Stack gap="sm" maw={640} mt="sm">
        <Text fw={600}>{t(`store.${store}.add`)}</Text>
        <FormAlert state={formErrors} />
        <TextInput label={t("store.key_name")} required {...text("key_name")} />
        {store === "app_store" ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t("store.app_store.issuer_id")} required {...text("issuer_id")} />
            <TextInput label={t("store.app_store.key_id")} required {...text("key_id")} />
          </SimpleGrid>
        ) : null}
        <FileInput
          label={t(`store.${store}.key_file`)}
          required
          accept={store === "app_store" ? ".p8" : "application/json,.json"}
          value={keyFile}
          onChange={setKeyFile}
          clearable
          error={formErrors.errors.fields.private_key_file}
        />
        <Button type="submit" loading={add.isPending} style={{ alignSelf: "flex-start" }}>
          {add.isPending ? t("store.verifying") : t("store.add_account")}
        </Button>
      </Stack>
    </form>
  );
}

function DeleteAccountDialog({
  store,
  orgId,
  account,
  onClose,
}: {
  store: StoreKind;
  orgId: number;
  account: DeveloperAccount | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => deleteDeveloperAccount(store, id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: storeKeys.allAccounts(orgId) });
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <ConfirmDialog
      opened={account !== null}
      title={t("store.delete")}
      message={t("store.delete_confirm", { name: account?.key_name ?? "" })}
      confirmLabel={t("store.delete")}
      busy={remove.isPending}
      onConfirm={() => account && !remove.isPending && remove.mutate(account.id)}
      onClose={onClose}
    />
  );
}
