import { Button, PasswordInput, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountKeys, changePassword, type Profile, updateProfileNames } from "../../api/account.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";

const NAME_FIELDS = ["first_name", "last_name"] as const;

export function NamesForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState(profile.first_name);
  const [lastName, setLastName] = useState(profile.last_name);
  const formErrors = useFormErrors(NAME_FIELDS);

  const save = useMutation({
    mutationFn: () =>
      updateProfileNames(profile.user_id, { first_name: firstName.trim(), last_name: lastName.trim() }),
    onSuccess: (updated) => {
      queryClient.setQueryData(accountKeys.profile(), updated);
      alerts.show({ type: "success", message: t("profile.saved") });
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
      <Stack gap="md" maw={560}>
        <Text fz="sm" c="dimmed">
          {t("profile.email_is", { email: profile.email })}
        </Text>
        <FormAlert state={formErrors} />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label={t("fields.first_name")}
            autoComplete="given-name"
            value={firstName}
            onChange={(event) => setFirstName(event.currentTarget.value)}
            error={formErrors.errors.fields.first_name}
          />
          <TextInput
            label={t("fields.last_name")}
            autoComplete="family-name"
            value={lastName}
            onChange={(event) => setLastName(event.currentTarget.value)}
            error={formErrors.errors.fields.last_name}
          />
        </SimpleGrid>
        <Button type="submit" loading={save.isPending} style={{ alignSelf: "flex-start" }}>
          {t("common.save")}
        </Button>
      </Stack>
    </form>
  );
}

const PASSWORD_FIELDS = ["old_password", "new_password"] as const;

export function PasswordForm() {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const [oldPassword, setOldPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const formErrors = useFormErrors(PASSWORD_FIELDS);

  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      setOldPassword("");
      setNewPassword("");
      setConfirmation("");
      alerts.show({ type: "success", message: t("profile.password_changed") });
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    const differ = newPassword !== confirmation;
    setMismatch(differ);
    if (differ) return;
    change.mutate({ old_password: oldPassword, new_password: newPassword });
  };

  const toggle = { "aria-label": t("fields.toggle_password") };
  return (
    <form onSubmit={submit}>
      <Stack gap="md" maw={400}>
        <FormAlert state={formErrors} />
        <PasswordInput
          label={t("fields.current_password")}
          autoComplete="current-password"
          required
          value={oldPassword}
          onChange={(event) => setOldPassword(event.currentTarget.value)}
          error={formErrors.errors.fields.old_password}
          visibilityToggleButtonProps={toggle}
        />
        <PasswordInput
          label={t("fields.new_password")}
          description={t("signup.password_rules")}
          autoComplete="new-password"
          required
          value={newPassword}
          onChange={(event) => setNewPassword(event.currentTarget.value)}
          error={formErrors.errors.fields.new_password}
          visibilityToggleButtonProps={toggle}
        />
        <PasswordInput
          label={t("fields.confirm_password")}
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(event) => setConfirmation(event.currentTarget.value)}
          error={mismatch ? t("validation.password_mismatch") : undefined}
          visibilityToggleButtonProps={toggle}
        />
        <Button type="submit" loading={change.isPending} style={{ alignSelf: "flex-start" }}>
          {t("profile.change_password")}
        </Button>
      </Stack>
    </form>
  );
}
