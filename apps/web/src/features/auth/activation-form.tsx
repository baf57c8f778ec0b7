import { Button, PasswordInput, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { type ActivateInput, type ActivationInfo, requestActivation } from "../../api/auth.ts";
import { setToken } from "../../api/client.ts";
import { Alert } from "../../ui/alert.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";

const ACTIVATION_FIELDS = ["password", "first_name", "last_name"] as const;

/** The confirm button; an invitation also asks for the new account's password and names. */
export function ActivationForm({
  code,
  info,
  onActivated,
}: {
  code: string;
  info: ActivationInfo;
  onActivated?: () => void;
}) {
  const { t } = useTranslation();
  const formErrors = useFormErrors(ACTIVATION_FIELDS);
  const [result, setResult] = useState<"none" | "active" | "signed_in">("none");
  // The inviting admin may have typed the names already: start from them.
  const [form, setForm] = useState({ password: "", first_name: info.first_name, last_name: info.last_name });
  const asksPassword = info.requires_password || info.kind === "invitation";

  const activate = useMutation({
    mutationFn: (input: ActivateInput) => requestActivation(code, input),
    onSuccess: (reply) => {
      onActivated?.();
      if (reply?.token) {
        setToken(reply.token);
        setResult("signed_in");
      } else {
        setResult("active");
      }
    },
    onError: formErrors.showError,
  });

  if (result !== "none") {
    if (result === "signed_in") return <SignedInAfterActivation />;
    return (
      <Stack gap="md">
        <Alert type="success" message={t("activate.done")} timeout={0} dismissible={false} />
        <Button component={Link} to="/login" fullWidth size="md">
          {t("activate.go_login")}
        </Button>
      </Stack>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    activate.mutate(
      asksPassword
        ? { password: form.password, first_name: form.first_name.trim(), last_name: form.last_name.trim() }
        : undefined,
    );
  };

  const update = (field: keyof typeof form) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="md">
        <FormAlert state={formErrors} />
        {asksPassword ? (
          <>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <TextInput
                label={t("fields.first_name")}
                autoComplete="given-name"
                value={form.first_name}
                onChange={update("first_name")}
                error={formErrors.errors.fields.first_name}
              />
              <TextInput
                label={t("fields.last_name")}
                autoComplete="family-name"
                value={form.last_name}
                onChange={update("last_name")}
                error={formErrors.errors.fields.last_name}
              />
            </SimpleGrid>
            <PasswordInput
              label={t("fields.password")}
              description={t("signup.password_rules")}
              autoComplete="new-password"
              required
              value={form.password}
              onChange={update("password")}
              error={formErrors.errors.fields.password}
              visibilityToggleButtonProps={{ "aria-label": t("fields.toggle_password") }}
            />
          </>
        ) : null}
        <Button type="submit" fullWidth size="md" loading={activate.isPending}>
          {asksPassword ? t("activate.accept_invitation") : t("activate.submit")}
        </Button>
      </Stack>
    </form>
  );
}

/** Signed in by the activation: on to the dashboard by itself, no second click needed. */
const DASHBOARD_DELAY_MS = 1500;

function SignedInAfterActivation() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate("/dashboard", { replace: true }), DASHBOARD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <Stack gap="md">
      <Alert type="success" message={t("activate.done_opening")} timeout={0} dismissible={false} />
      <Button component={Link} to="/dashboard" replace fullWidth size="md" variant="light">
        {t("activate.go_dashboard")}
      </Button>
    </Stack>
  );
}
