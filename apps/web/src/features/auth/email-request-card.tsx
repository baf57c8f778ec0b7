import { Anchor, Button, Group, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "../../ui/alert.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { AuthCard } from "../../ui/public-layout.tsx";

const EMAIL_FIELDS = ["email"] as const;

export interface EmailRequestCardProps {
  title: string;
  subtitle: string;
  submitLabel: string;
  /** The confirmation shown once the request went through, for the address it went to. */
  sentMessage: (email: string) => string;
  send: (email: string) => Promise<unknown>;
  submitVariant?: "filled" | "light";
}

/**
 * "Type your e-mail and we send you a link" — the password reset and the activation resend
 * share it, so both answer the same way whether or not the address is known.
 */
export function EmailRequestCard({
  title,
  subtitle,
  submitLabel,
  sentMessage,
  send,
  submitVariant,
}: EmailRequestCardProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formErrors = useFormErrors(EMAIL_FIELDS);
  const request = useMutation({
    mutationFn: send,
    onSuccess: (_reply, sentEmail) => setSentTo(sentEmail),
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    request.mutate(email.trim());
  };

  return (
    <AuthCard title={title} subtitle={subtitle}>
      {sentTo ? (
        <Alert type="success" message={sentMessage(sentTo)} timeout={0} dismissible={false} />
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
              <Button
                type="submit"
                variant={submitVariant ?? "filled"}
                fullWidth
                size="md"
                loading={request.isPending}
              >
                {submitLabel}
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
  );
}
