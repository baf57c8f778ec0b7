// Shared frame of dashboard pages: heading, and the loading / error / no-organization states.
import { Anchor, Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { OrgData, Profile } from "../api/account.ts";
import { useDashboard } from "../api/dashboard-context.tsx";
import { LoadError } from "./load-error.tsx";
import { PageLoader } from "./page-loader.tsx";
import { useDocumentTitle } from "./use-document-title.ts";

export function PageFrame({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4}>
          <Title order={1} fz={{ base: 22, sm: 28 }}>
            {title}
          </Title>
          {description ? <Text c="dimmed">{description}</Text> : null}
        </Stack>
        {actions}
      </Group>
      {children}
    </Stack>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: "md", sm: "lg" }} component="section">
      <Stack gap="md">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** Renders its content only for a loaded profile, with a current organization if `needsOrg`. */
export function ProfileGate({
  needsOrg = false,
  allow,
  children,
}: {
  needsOrg?: boolean;
  allow?: (role: number) => boolean;
  children: (profile: Profile, org: OrgData | null) => ReactNode;
}) {
  const { t } = useTranslation();
  const { profile, profileLoading, currentOrg, refreshProfile } = useDashboard();
  if (profileLoading) return <PageLoader />;
  if (!profile) return <LoadError onRetry={() => void refreshProfile()} />;
  if (needsOrg && !currentOrg) {
    return (
      <Text c="dimmed">
        {t("org.none")}{" "}
        <Anchor component={Link} to="/dashboard/organization/new">
          {t("menu.new_org")}
        </Anchor>
      </Text>
    );
  }
  if (allow && currentOrg && !allow(currentOrg.role)) {
    return <Text c="dimmed">{t("org.no_access")}</Text>;
  }
  return <>{children(profile, currentOrg)}</>;
}
