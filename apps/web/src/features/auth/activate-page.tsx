import { Stack } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { authKeys, checkActivation, requestReinvite } from "../../api/auth.ts";
import { ApiError } from "../../api/client.ts";
import { Alert } from "../../ui/alert.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { ActivationForm } from "./activation-form.tsx";
import { EmailRequestCard } from "./email-request-card.tsx";

export function ActivatePage() {
  const { t } = useTranslation();
  const { code } = useParams();
  useDocumentTitle(t("activate.title"));
  // Once the account is active, asking for another activation mail makes no sense.
  const [activated, setActivated] = useState(false);
  return (
    <PublicLayout>
      <Stack gap="lg">
        {code ? <ActivateWithCode code={code} onActivated={() => setActivated(true)} /> : null}
        {activated ? null : <ResendActivation />}
      </Stack>
    </PublicLayout>
  );
}

/** The link is checked first; activation then waits for a click, so mail scanners opening links do nothing. */
function ActivateWithCode({ code, onActivated }: { code: string; onActivated: () => void }) {
  const { t } = useTranslation();
  const check = useQuery({
    queryKey: authKeys.activation(code),
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
            // Any refusal of the link (unknown, used, expired, malformed) means the same to the
            // person: this link will not work, and the box below sends a new one.
            check.error instanceof ApiError && check.error.status >= 400 && check.error.status < 500
              ? t("activate.invalid")
              : t("errors.server")
          }
          timeout={0}
          dismissible={false}
        />
      ) : null}
      {check.data ? <ActivationForm code={code} info={check.data} onActivated={onActivated} /> : null}
    </AuthCard>
  );
}

function ResendActivation() {
  const { t } = useTranslation();
  return (
    <EmailRequestCard
      title={t("activate.resend_title")}
      subtitle={t("activate.resend_description")}
      submitLabel={t("activate.resend_submit")}
      sentMessage={(email) => t("activate.resend_done", { email })}
      send={requestReinvite}
      submitVariant="light"
    />
  );
}
