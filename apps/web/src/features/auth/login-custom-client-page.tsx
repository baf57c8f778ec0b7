import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { SsoLinkCard } from "./sso-link-card.tsx";
import { SsoOrganizationCard } from "./sso-organization-card.tsx";
import { SsoSecondFactorCard } from "./sso-second-factor-card.tsx";

/**
 * Single sign-on: the organization's name leads to its provider; the provider sends the browser
 * back here for the account's own second factor (`?sso_second_factor=`) or with a reason it did
 * not finish (`?sso_error=`); the mailed link to link an account opens here too (`?sso_link=`).
 */
export function LoginCustomClientPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("custom_login.title"));
  const [searchParams] = useSearchParams();
  const ticket = searchParams.get("sso_second_factor");
  const linkCode = searchParams.get("sso_link");
  return (
    <PublicLayout>
      {ticket ? (
        <SsoSecondFactorCard ticket={ticket} />
      ) : linkCode ? (
        <SsoLinkCard code={linkCode} />
      ) : (
        <SsoOrganizationCard />
      )}
    </PublicLayout>
  );
}
