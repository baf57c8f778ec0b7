import { Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { PageFrame, ProfileGate, Section } from "../../ui/page-frame.tsx";
import { ApiKeySection } from "./api-key-section.tsx";
import { DataExportSection } from "./data-export-section.tsx";
import { DeleteAccountSection } from "./delete-account-section.tsx";
import { NamesForm, PasswordForm } from "./profile-forms.tsx";
import { PushSection } from "./push-section.tsx";
import { SignOutEverywhereSection } from "./sign-out-everywhere-section.tsx";
import { SsoLinksSection } from "./sso-links-section.tsx";
import { TwoFactorSection } from "./two-factor-section.tsx";

export function ProfilePage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("profile.title")} description={t("profile.description")}>
      <ProfileGate>
        {(profile, org) => (
          <Stack gap="lg">
            <Section title={t("profile.names")}>
              <NamesForm profile={profile} />
            </Section>
            <Section title={t("profile.password")}>
              <PasswordForm />
            </Section>
            <Section title={t("twofa.title")}>
              <TwoFactorSection enabled={profile.two_factor_enabled} />
            </Section>
            <Section title={t("sso_links.title")}>
              <SsoLinksSection />
            </Section>
            <Section title={t("apikey.title")}>
              <ApiKeySection profile={profile} org={org} />
            </Section>
            <Section title={t("push.title")}>
              <PushSection />
            </Section>
            <Section title={t("sessions.title")}>
              <SignOutEverywhereSection />
            </Section>
            <Section title={t("export.title")}>
              <DataExportSection />
            </Section>
            <Section title={t("delete_account.title")}>
              <DeleteAccountSection />
            </Section>
          </Stack>
        )}
      </ProfileGate>
    </PageFrame>
  );
}
