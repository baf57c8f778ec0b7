import { Anchor, Button, Group, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { lookUpSsoByName } from "../../api/auth.ts";
import { ApiError } from "../../api/client.ts";
import { Alert } from "../../ui/alert.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

/** Single sign-on entry: the organization's name leads to its identity provider. */
export function LoginCustomClientPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("custom_login.title"));
  const [name, setName] = useState("");
  const [noSso, setNoSso] = useState(false);
  const formErrors = useFormErrors(["name"]);

  const lookUp = useMutation({
    mutationFn: lookUpSsoByName,
    onSuccess: (reply) => {
      if (reply?.login_url) {
        window.location.assign(reply.login_url);
        return;
      }
      setNoSso(true);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 404) {
        formErrors.showGeneral(t("custom_login.not_found"));
        return;
      }
      formErrors.showError(error);
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    setNoSso(false);
    lookUp.mutate(name.trim());
  };

  return (
    <PublicLayout>
      <AuthCard title={t("custom_login.title")} subtitle={t("custom_login.description")}>
        {noSso ? <Alert type="info" message={t("custom_login.no_sso")} timeout={0} /> : null}
        <FormAlert state={formErrors} />
        <form onSubmit={submit}>
          <Stack gap="md">
            <TextInput
              label={t("custom_login.organization")}
              name="name"
              autoComplete="organization"
              required
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={formErrors.errors.fields.name}
            />
            <Button type="submit" fullWidth size="md" loading={lookUp.isPending}>
              {t("custom_login.submit")}
            </Button>
          </Stack>
        </form>
        <Group justify="center">
          <Anchor component={Link} to="/login" fz="sm">
            {t("custom_login.password_login")}
          </Anchor>
        </Group>
      </AuthCard>
    </PublicLayout>
  );
}
