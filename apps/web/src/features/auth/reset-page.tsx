import { useTranslation } from "react-i18next";
import { requestPasswordReset } from "../../api/auth.ts";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { EmailRequestCard } from "./email-request-card.tsx";

export function ResetPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("reset.title"));
  return (
    <PublicLayout>
      <EmailRequestCard
        title={t("reset.title")}
        subtitle={t("reset.description")}
        submitLabel={t("reset.submit")}
        sentMessage={(email) => t("reset.sent", { email })}
        send={requestPasswordReset}
      />
    </PublicLayout>
  );
}
