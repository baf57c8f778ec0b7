import { Anchor, Button, Group, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { requestPasswordReset } from "../../api/auth.ts";
import { Alert } from "../../ui/alert.tsx";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { FormAlert } from "./form-alert.tsx";
import { useFormErrors } from "./use-form-errors.ts";

const RESET_FIELDS = ["email"] as const;

export function ResetPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("reset.title"));
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formErrors = useFormErrors(RESET_FIELDS);

  const reset = useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: (_reply, sentEmail) => setSentTo(sentEmail),
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    reset.mutate(email.trim());
  };

  return (
    <PublicLayout>
      <AuthCard title={t("reset.title")} subtitle={t("reset.description")}>
        {sentTo ? (
          <Alert
            type="success"
            message={t("reset.sent", { email: sentTo })}
            timeout={0}
            dismissible={false}
          />
        ) : (
          <>
            <FormAlert state={formErrors} />
            <form onSubmit={submit}>
              <Stack gap="md">
                <TextInput
                  label={t("fields.email")}
                  name="email"
                  type="email"
                  autoComplete="email"
                  required
                  value={email}
                  onChange={(event) => setEmail(event.currentTarget.value)}
                  error={formErrors.errors.fields.email}
                />
                <Button type="submit" fullWidth size="md" loading={reset.isPending}>
                  {t("reset.submit")}
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
