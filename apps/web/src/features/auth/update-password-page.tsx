import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { requestPasswordUpdate } from "../../api/auth.ts";
import { Alert } from "../../ui/alert.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

const UPDATE_FIELDS = ["code", "password"] as const;

export function UpdatePasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("update_password.title"));
  const [searchParams] = useSearchParams();
  const codeFromLink = searchParams.get("code") ?? "";
  const [code, setCode] = useState(codeFromLink);
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [revokeApiKeys, setRevokeApiKeys] = useState(false);
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState(false);
  const formErrors = useFormErrors(UPDATE_FIELDS);
  const { errors } = formErrors;

  const update = useMutation({
    mutationFn: (input: { code: string; password: string; revokeApiKeys: boolean }) =>
      requestPasswordUpdate(input.code, input.password, input.revokeApiKeys),
    onSuccess: () => setDone(true),
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    const passwordsDiffer = password !== confirmation;
    setMismatch(passwordsDiffer);
    if (passwordsDiffer) return;
    update.mutate({ code: code.trim(), password, revokeApiKeys });
  };

  return (
    <PublicLayout>
      <AuthCard title={t("update_password.title")} subtitle={t("update_password.description")}>
        {done ? (
          <Alert type="success" message={t("update_password.done")} timeout={0} dismissible={false} />
        ) : (
          <>
            <FormAlert state={formErrors} />
            <form onSubmit={submit}>
              <Stack gap="md">
                {codeFromLink && !errors.fields.code ? null : (
                  <TextInput
                    label={t("fields.code")}
                    name="code"
                    autoComplete="off"
                    required
                    value={code}
                    onChange={(event) => setCode(event.currentTarget.value)}
                    error={errors.fields.code}
                  />
                )}
                <PasswordInput
                  label={t("fields.new_password")}
                  name="password"
                  autoComplete="new-password"
                  required
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                  error={errors.fields.password}
                  visibilityToggleButtonProps={{ "aria-label": t("fields.toggle_password") }}
                />
                <PasswordInput
                  label={t("fields.confirm_password")}
                  name="password_confirmation"
                  autoComplete="new-password"
                  required
                  value={confirmation}
                  onChange={(event) => setConfirmation(event.currentTarget.value)}
                  error={mismatch ? t("validation.password_mismatch") : undefined}
                  visibilityToggleButtonProps={{ "aria-label": t("fields.toggle_password") }}
                />
                <Checkbox
                  label={t("update_password.revoke_api_keys")}
                  description={t("update_password.revoke_api_keys_hint")}
                  checked={revokeApiKeys}
                  onChange={(event) => setRevokeApiKeys(event.currentTarget.checked)}
                />
                <Button type="submit" fullWidth size="md" loading={update.isPending}>
                  {t("update_password.submit")}
                </Button>
              </Stack>
            </form>
          </>
        )}
        <Group justify="center">
          <Anchor component={Link} to="/login" fz="sm">
            {t("reset.back_to_login")}
          </Anchor>
        </Group>
      </AuthCard>
    </PublicLayout>
  );
}
