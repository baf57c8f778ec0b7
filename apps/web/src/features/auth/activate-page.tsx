import { Anchor, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { checkActivation, requestReinvite } from "../../api/auth.ts";
import { ApiError } from "../../api/client.ts";
import { Alert } from "../../ui/alert.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { ActivationForm } from "./activation-form.tsx";
import { FormAlert } from "./form-alert.tsx";
import { useFormErrors } from "./use-form-errors.ts";

export function ActivatePage() {
  const { t } = useTranslation();
  const { code } = useParams();
  useDocumentTitle(t("activate.title"));
  return (
    <PublicLayout>
      <Stack gap="lg">
        {code ? <ActivateWithCode code={code} /> : null}
        <ResendActivation />
      </Stack>
    </PublicLayout>
  );
}

/** The link is checked first; activation then waits for a click, so mail scanners opening links do nothing. */
function ActivateWithCode({ code }: { code: string }) {
  const { t } = useTranslation();
  const check = useQuery({
    queryKey: ["activation", code],
    queryFn: () => checkActivation(code),
    retry: false,
  });
  const invitation = check.data?.kind === "invitation";
  return (
    <AuthCard
      title={invitation ? t("activate.invitation_title") : t("activate.title")}
      subtitle={
        check.data
          ? t(invitation ? "activate.invitation_description" : "activate.description_for", {
              email: check.data.email,
            })
          : t("activate.description")
      }
    >
      {check.isPending ? <PageLoader /> : null}
      {check.isError ? (
        <Alert
          type="error"
          message={
            check.error instanceof ApiError && check.error.status === 404
              ? t("activate.invalid")
              : t("errors.server")
          }
          timeout={0}
          dismissible={false}
        />
      ) : null}
      {check.data ? <ActivationForm code={code} info={check.data} /> : null}
    </AuthCard>
  );
}

function ResendActivation() {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formErrors = useFormErrors(["email"]);

  const resend = useMutation({
    mutationFn: requestReinvite,
    onSuccess: (_reply, sentEmail) => setSentTo(sentEmail),
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    resend.mutate(email.trim());
  };

  return (
    <AuthCard title={t("activate.resend_title")} subtitle={t("activate.resend_description")}>
      {sentTo ? (
        <Alert
          type="success"
          message={t("activate.resend_done", { email: sentTo })}
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
              <Button type="submit" variant="light" fullWidth loading={resend.isPending}>
                {t("activate.resend_submit")}
              </Button>
            </Stack>
          </form>
        </>
      )}
      <Group justify="center">
        <Text fz="sm" c="dimmed">
          <Anchor component={Link} to="/login" fz="sm">
            {t("reset.back_to_login")}
          </Anchor>
        </Text>
      </Group>
    </AuthCard>
  );
}
