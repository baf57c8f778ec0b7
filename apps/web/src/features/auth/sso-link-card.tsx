import { Button, Stack, Text } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ssoStartUrl } from "../../api/auth.ts";
import { ApiError } from "../../api/client.ts";
import {
  confirmSsoLinkRequest,
  fetchSsoLinkRequest,
  type SsoLinkRequest,
  ssoLinkKeys,
} from "../../api/sso.ts";
import { Alert } from "../../ui/alert.tsx";
import { describeError } from "../../ui/error-text.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { AuthCard } from "../../ui/public-layout.tsx";
import { CardFooterLink } from "./auth-card-parts.tsx";

/** A link that no longer offers anything: unknown, used or expired (or not even a code). */
function isDeadLink(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/**
 * The mailed link: the organization's provider named this account, and its mailbox confirms it
 * is the owner who wants that sign-in to open the account from now on.
 */
export function SsoLinkCard({ code }: { code: string }) {
  const { t } = useTranslation();
  const request = useQuery({
    queryKey: ssoLinkKeys.request(code),
    queryFn: () => fetchSsoLinkRequest(code),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <AuthCard title={t("custom_login.link_title")}>
      {request.isPending ? <PageLoader /> : null}
      {request.isError && isDeadLink(request.error) ? <DeadLink /> : null}
      {request.isError && !isDeadLink(request.error) ? (
        <LoadError onRetry={() => void request.refetch()} />
      ) : null}
      {request.data ? <LinkConfirmation code={code} offer={request.data} /> : null}
      <CardFooterLink to="/login" label={t("custom_login.password_login")} />
    </AuthCard>
  );
}

function DeadLink() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Alert type="error" message={t("custom_login.link_invalid")} timeout={0} dismissible={false} />
      <CardFooterLink to="/login-custom-client" label={t("custom_login.start_again")} />
    </Stack>
  );
}

function LinkConfirmation({ code, offer }: { code: string; offer: SsoLinkRequest }) {
  const { t } = useTranslation();
  const organization = offer.organization.title;
  const confirm = useMutation({ mutationFn: () => confirmSsoLinkRequest(code) });

  if (confirm.isSuccess) {
    const signIn = ssoStartUrl(confirm.data.login_url, { email: offer.email });
    return (
      <Stack gap="md">
        <Alert
          type="success"
          message={t("custom_login.link_done", { organization })}
          timeout={0}
          dismissible={false}
        />
        <Button component="a" href={signIn} fullWidth size="md">
          {t("custom_login.link_sign_in", { organization })}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Text>{t("custom_login.link_question", { email: offer.email, organization })}</Text>
      <Text fz="sm" c="dimmed">
        {t("custom_login.link_not_you")}
      </Text>
      {confirm.isError ? (
        <Alert
          type="error"
          message={
            isDeadLink(confirm.error) ? t("custom_login.link_invalid") : describeError(confirm.error, t)
          }
          timeout={0}
        />
      ) : null}
      <Button fullWidth size="md" loading={confirm.isPending} onClick={() => confirm.mutate()}>
        {t("custom_login.link_submit")}
      </Button>
    </Stack>
  );
}
