import { Button, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { lookUpSsoByName, ssoStartUrl } from "../../api/auth.ts";
import { ApiError } from "../../api/client.ts";
import { safeNextPath } from "../../api/next-path.ts";
import { Alert } from "../../ui/alert.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { AuthCard } from "../../ui/public-layout.tsx";
import { CardFooterLink } from "./auth-card-parts.tsx";
import { readSsoFailure } from "./sso-failure.ts";

/** Single sign-on entry: the organization's name leads to its identity provider. */
export function SsoOrganizationCard() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const [name, setName] = useState(searchParams.get("org") ?? "");
  const [noSso, setNoSso] = useState(false);
  const formErrors = useFormErrors(["name"]);
  // Why the last sign-in did not finish (the server sends the browser back here with a reason).
  const ssoError = searchParams.get("sso_error");
  const failure = readSsoFailure(ssoError);

  const lookUp = useMutation({
    mutationFn: lookUpSsoByName,
    onSuccess: (reply) => {
      if (reply?.login_url) {
        window.location.assign(
          ssoStartUrl(reply.login_url, { next: safeNextPath(searchParams.get("next")) }),
        );
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

  // Arriving with the organization's name (its sign-in link) goes straight on, unless it just failed.
  const started = useRef(false);
  useEffect(() => {
    const org = searchParams.get("org");
    if (org && !ssoError && !started.current) {
      started.current = true;
      lookUp.mutate(org);
    }
  }, [searchParams, ssoError, lookUp]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    setNoSso(false);
    lookUp.mutate(name.trim());
  };

  return (
    <AuthCard title={t("custom_login.title")} subtitle={t("custom_login.description")}>
      {failure ? <Alert type={failure.type} message={t(failure.key)} timeout={0} /> : null}
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
      <CardFooterLink to="/login" label={t("custom_login.password_login")} />
    </AuthCard>
  );
}
