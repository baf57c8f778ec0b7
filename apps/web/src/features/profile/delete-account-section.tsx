import { Button, Checkbox, PasswordInput, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { deleteAccount } from "../../api/account.ts";
import { clearSession } from "../../api/token.ts";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";

export function DeleteAccountSection() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [understood, setUnderstood] = useState(false);
  const formErrors = useFormErrors(["password"]);

  const remove = useMutation({
    mutationFn: () => deleteAccount(password),
    onSuccess: () => {
      clearSession();
      queryClient.clear();
      navigate("/login", { replace: true });
    },
    // A refusal (e.g. the user still owns an organization with members) is shown as the server says it.
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    remove.mutate();
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="sm" maw={420}>
        <Text fz="sm" c="dimmed">
          {t("delete_account.description")}
        </Text>
        <FormAlert state={formErrors} />
        <PasswordInput
          label={t("fields.password")}
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={formErrors.errors.fields.password}
          visibilityToggleButtonProps={{ "aria-label": t("fields.toggle_password") }}
        />
        <Checkbox
          label={t("delete_account.understood")}
          checked={understood}
          onChange={(event) => setUnderstood(event.currentTarget.checked)}
        />
        <Button
          type="submit"
          color="red"
          disabled={!understood}
          loading={remove.isPending}
          style={{ alignSelf: "flex-start" }}
        >
          {t("delete_account.submit")}
        </Button>
      </Stack>
    </form>
  );
}
