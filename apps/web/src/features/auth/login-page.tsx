import { Anchor, Button, Divider, Group, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import {
  type LoginInput,
  type LoginResponse,
  lookUpSsoByEmail,
  requestLogin,
  ssoStartUrl,
} from "../../api/auth.ts";
import { setToken } from "../../api/client.ts";
import { safeNextPath } from "../../api/next-path.ts";
import { clearSession } from "../../api/token.ts";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { OtpField } from "./auth-card-parts.tsx";

const LOGIN_FIELDS = ["email", "password", "otp"] as const;

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  useDocumentTitle(t("login.title"));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [otp, setOtp] = useState("");
  const [needsOtp, setNeedsOtp] = useState(false);
  const formErrors = useFormErrors(LOGIN_FIELDS);
  const { errors } = formErrors;
  // Once the address is typed (and the field left), its organization may offer single sign-on.
  const [checkedEmail, setCheckedEmail] = useState("");
  const sso = useQuery({
    queryKey: ["check-sso", checkedEmail],
    queryFn: () => lookUpSsoByEmail(checkedEmail),
    enabled: /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(checkedEmail),
    staleTime: 60_000,
  });
  const ssoUrl = sso.data?.login_url
    ? ssoStartUrl(sso.data.login_url, { next: safeNextPath(searchParams.get("next")), email: checkedEmail })
    : null;

  const login = useMutation({
    mutationFn: (attempt: { input: LoginInput; mobile: boolean }) =>
      requestLogin(attempt.input, attempt.mobile),
    onSuccess: (reply: LoginResponse | null, attempt) => {
      // One of three answers, told apart by their fields; an empty or non-JSON body is none of them.
      const answer = typeof reply === "object" ? reply : null;
      if (answer && "mobile_only" in answer && answer.mobile_only) {
        // Mobile users and testers use the mobile area, which is this web app's Install apps
        // page: sign them in there (the ?m=1 sign-in) instead of turning them away.
        clearSession();
        login.mutate({ input: attempt.input, mobile: true });
        return;
      }
      if (answer && "two_factor_required" in answer && answer.two_factor_required) {
        setNeedsOtp(true);
        return;
      }
      if (answer && "token" in answer && answer.token) {
        setToken(answer.token);
        const home = attempt.mobile ? "/dashboard/m" : "/dashboard";
        navigate(safeNextPath(searchParams.get("next")) ?? home, { replace: true });
        return;
      }
      formErrors.showGeneral(t("errors.server"));
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Logging in always starts from a clean session (spec §4).
    clearSession();
    formErrors.reset();
    const input: LoginInput = needsOtp ? { email, password, otp: otp.trim() } : { email, password };
    login.mutate({ input, mobile: false });
  };

  const backToCredentials = () => {
    setNeedsOtp(false);
    setOtp("");
    formErrors.reset();
  };

  return (
    <PublicLayout>
      <AuthCard title={t("login.title")} subtitle={needsOtp ? t("login.otp_subtitle") : t("login.subtitle")}>
        <FormAlert state={formErrors} />
        <form onSubmit={submit}>
          <Stack gap="md">
            {needsOtp ? (
              <OtpField value={otp} onChange={setOtp} error={errors.fields.otp} />
            ) : (
              <>
                <TextInput
                  label={t("fields.email")}
                  name="email"
                  type="email"
                  autoComplete="email"
                  required
                  value={email}
                  onChange={(event) => setEmail(event.currentTarget.value)}
                  onBlur={() => setCheckedEmail(email.trim())}
                  error={errors.fields.email}
                />
                {ssoUrl ? (
                  <Button component="a" href={ssoUrl} variant="light" fullWidth data-testid="sso-offer">
                    {t("login.sso_offer")}
                  </Button>
                ) : null}
                <PasswordInput
                  label={t("fields.password")}
                  name="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                  error={errors.fields.password}
                  visibilityToggleButtonProps={{ "aria-label": t("fields.toggle_password") }}
                />
                <Group justify="flex-end" mt={-8}>
                  <Anchor component={Link} to="/reset" fz="sm">
                    {t("login.forgot")}
                  </Anchor>
                </Group>
              </>
            )}
            <Button type="submit" fullWidth size="md" loading={login.isPending}>
              {needsOtp ? t("login.otp_submit") : t("login.submit")}
            </Button>
            {needsOtp ? (
              <Button variant="subtle" onClick={backToCredentials}>
                {t("login.otp_back")}
              </Button>
            ) : null}
          </Stack>
        </form>
        <Divider />
        <Stack gap={6} align="center">
          <Text fz="sm" c="dimmed">
            {t("login.no_account")}{" "}
            <Anchor component={Link} to="/signup" fz="sm" fw={600}>
              {t("login.signup_link")}
            </Anchor>
          </Text>
          <Anchor component={Link} to="/login-custom-client" fz="sm" ta="center">
            {t("login.sso_link")}
          </Anchor>
        </Stack>
      </AuthCard>
    </PublicLayout>
  );
}
