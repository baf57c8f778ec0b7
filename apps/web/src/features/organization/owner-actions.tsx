// Actions only the owner may take: hand the organization over, or delete it.
import { Button, NativeSelect, PasswordInput, Stack, Text } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { deleteOrganization, transferOwnership } from "../../api/organizations.ts";
import { ROLE_OWNER } from "../../api/roles.ts";
import { fetchMemberships, staffKeys } from "../../api/staff.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";

const TRANSFER_FIELDS = ["user"] as const;

export function TransferOwnershipForm({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const { refreshProfile } = useDashboard();
  const [user, setUser] = useState("");
  const formErrors = useFormErrors(TRANSFER_FIELDS);
  const members = useQuery({
    queryKey: staffKeys.list(orgId, 1, ""),
    queryFn: () => fetchMemberships(orgId, 1, ""),
  });
  const candidates = (members.data?.results ?? []).filter(
    (member) => member.role !== ROLE_OWNER && member.is_active,
  );

  const transfer = useMutation({
    mutationFn: () => transferOwnership(orgId, Number(user)),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("settings.transfer_done") });
      void refreshProfile();
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    if (user) transfer.mutate();
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="md" maw={480}>
        <Text fz="sm" c="dimmed">
          {t("settings.transfer_description")}
        </Text>
        <FormAlert state={formErrors} />
        <NativeSelect
          label={t("settings.transfer_to")}
          value={user}
          onChange={(event) => setUser(event.currentTarget.value)}
          data={[
            {
              value: "",
              label: candidates.length ? t("settings.transfer_choose") : t("settings.transfer_nobody"),
            },
            ...candidates.map((member) => ({ value: String(member.userid), label: member.email })),
          ]}
          error={formErrors.errors.fields.user}
        />
        <Button
          type="submit"
          variant="light"
          disabled={!user}
          loading={transfer.isPending}
          style={{ alignSelf: "flex-start" }}
        >
          {t("settings.transfer_submit")}
        </Button>
      </Stack>
    </form>
  );
}

const DELETE_FIELDS = ["password"] as const;

export function DeleteOrganizationForm({ orgId, title }: { orgId: number; title: string }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const { refreshProfile } = useDashboard();
  const [password, setPassword] = useState("");
  const formErrors = useFormErrors(DELETE_FIELDS);

  const remove = useMutation({
    mutationFn: () => deleteOrganization(orgId, password),
    onSuccess: async () => {
      alerts.show({ type: "success", message: t("settings.delete_done", { title }) });
      await refreshProfile();
      navigate("/dashboard");
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    remove.mutate();
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="md" maw={480}>
        <Text fz="sm" c="dimmed">
          {t("settings.delete_description", { title })}
        </Text>
        <FormAlert state={formErrors} />
        <PasswordInput
          label={t("fields.password")}
          required
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={formErrors.errors.fields.password}
          visibilityToggleButtonProps={{ "aria-label": t("fields.toggle_password") }}
        />
        <Button type="submit" color="red" loading={remove.isPending} style={{ alignSelf: "flex-start" }}>
          {t("settings.delete_submit")}
        </Button>
      </Stack>
    </form>
  );
}
