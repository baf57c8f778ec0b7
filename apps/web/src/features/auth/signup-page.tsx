import {
  Anchor,
  Button,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { type RegisterInput, requestRegistration } from "../../api/auth.ts";
import { setToken } from "../../api/client.ts";
import { contentKeys, fetchSinglePage } from "../../api/content.ts";
import { useContentLanguage } from "../../api/use-content-language.ts";
import { Alert } from "../../ui/alert.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { HtmlBody } from "../../ui/html-body.tsx";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

const SIGNUP_FIELDS = ["email", "password", "first_name", "last_name"] as const;
const EMPTY_FORM: RegisterInput = { email: "", password: "", first_name: "", last_name: "" };

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t("signup.title"));
  const [form, setForm] = useState<RegisterInput>(EMPTY_FORM);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [signedIn, setSignedIn] = useState(false);
  const formErrors = useFormErrors(SIGNUP_FIELDS);
  const { errors } = formErrors;

  const register = useMutation({
    mutationFn: requestRegistration,
    onSuccess: (reply, input) => {
      // The new account may sign in at once but stays limited until the e-mailed link is opened.
      if (reply?.token) setToken(reply.token);
      setSignedIn(Boolean(reply?.token));
      setSentTo(input.email);
    },
    onError: formErrors.showError,
  });

  const update = (field: keyof RegisterInput) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    register.mutate({
      ...form,
      email: form.email.trim(),
      first_name: form.first_name.trim(),
      last_name: form.last_name.trim(),
    });
  };

  return (
    <PublicLayout>
      <AuthCard title={t("signup.title")} subtitle={t("signup.subtitle")}>
        {sentTo ? (
          <Stack gap="md">
            <Title order={2} fz="lg">
              {t("signup.check_title")}
            </Title>
            <Alert
              type="success"
              message={t("signup.check_inbox", { email: sentTo })}
              timeout={0}
              dismissible={false}
            />
            {signedIn ? (
              <Button fullWidth size="md" onClick={() => navigate("/dashboard", { replace: true })}>
                {t("activate.go_dashboard")}
              </Button>
            ) : null}
          </Stack>
        ) : (
          <>
            <FormAlert state={formErrors} />
            <form onSubmit={submit}>
              <Stack gap="md">
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
                  <TextInput
                    label={t("fields.first_name")}
                    name="first_name"
                    autoComplete="given-name"
                    required
                    value={form.first_name}
                    onChange={update("first_name")}
                    error={errors.fields.first_name}
                  />
                  <TextInput
                    label={t("fields.last_name")}
                    name="last_name"
                    autoComplete="family-name"
                    required
                    value={form.last_name}
                    onChange={update("last_name")}
                    error={errors.fields.last_name}
                  />
                </SimpleGrid>
                <TextInput
                  label={t("fields.email")}
                  name="email"
                  type="email"
                  autoComplete="email"
                  required
                  value={form.email}
                  onChange={update("email")}
                  error={errors.fields.email}
                />
                <PasswordInput
                  label={t("fields.password")}
                  name="password"
                  autoComplete="new-password"
                  required
                  value={form.password}
                  onChange={update("password")}
                  description={t("signup.password_rules")}
                  error={errors.fields.password}
                  visibilityToggleButtonProps={{ "aria-label": t("fields.toggle_password") }}
                />
                <Button type="submit" fullWidth size="md" loading={register.isPending}>
                  {t("signup.submit")}
                </Button>
              </Stack>
            </form>
          </>
        )}
        <Group justify="center">
          <Text fz="sm" c="dimmed">
            {t("signup.have_account")}{" "}
            <Anchor component={Link} to="/login" fz="sm" fw={600}>
              {t("signup.login_link")}
            </Anchor>
          </Text>
        </Group>
      </AuthCard>
      {sentTo ? null : <SignupTexts />}
    </PublicLayout>
  );
}

/** The editors' sign-up texts (GET /api/reg/): what an account offers, and the terms it accepts. */
function SignupTexts() {
  const lang = useContentLanguage();
  const reg = useQuery({
    queryKey: contentKeys.single("reg", lang),
    queryFn: () => fetchSinglePage("reg", lang),
    retry: false,
  });
  if (!reg.data?.html) return null;
  return (
    <Text component="div" fz="sm" c="dimmed" mt="lg" px="xs">
      <HtmlBody html={reg.data.html} />
    </Text>
  );
}
