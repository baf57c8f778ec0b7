import { Anchor, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { requestActivation, requestReinvite } from "../../api/auth.ts";
import { setToken } from "../../api/client.ts";
import { Alert } from "../../ui/alert.tsx";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
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

/** Activation waits for a click: mail scanners that open links must not activate accounts. */
function ActivateWithCode({ code }: { code: string }) {
  const { t } = useTranslation();
  const formErrors = useFormErrors([]);
  const [result, setResult] = useState<"none" | "active" | "signed_in">("none");

  const activate = useMutation({
    mutationFn: () => requestActivation(code),
    onSuccess: (reply) => {
      if (reply?.token) {
        setToken(reply.token);
        setResult("signed_in");
      } else {
        setResult("active");
      }
    },
    onError: formErrors.showError,
  });

  return (
    <AuthCard title={t("activate.title")} subtitle={t("activate.description")}>
      <FormAlert state={formErrors} />
      {result === "none" ? (
        <Button
          fullWidth
          size="md"
          loading={activate.isPending}
          onClick={() => {
            formErrors.reset();
            activate.mutate();
          }}
        >
          {t("activate.submit")}
        </Button>
      ) : (
        <Stack gap="md">
          <Alert type="success" message={t("activate.done")} timeout={0} dismissible={false} />
          {result === "signed_in" ? (
            <Button component={Link} to="/dashboard" fullWidth size="md">
              {t("activate.go_dashboard")}
            </Button>
          ) : (
            <Button component={Link} to="/login" fullWidth size="md">
              {t("activate.go_login")}
            </Button>
          )}
        </Stack>
      )}
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
