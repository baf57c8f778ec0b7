import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { requestReinvite } from "../../api/auth.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { isAdminRole } from "../../api/roles.ts";
import { Alert } from "../../ui/alert.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { ROLE_COLORS, roleKey } from "../../ui/role-labels.ts";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { CreateOrganizationForm } from "./create-organization-form.tsx";

export function DashboardHome() {
  const { t } = useTranslation();
  useDocumentTitle(t("dashboard.title"));
  const { profile, profileLoading, currentOrg } = useDashboard();
  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={4}>
        <Title order={1} fz={28}>
          {t("dashboard.title")}
        </Title>
        <Text c="dimmed">
          {profile
            ? t("dashboard.hello", { name: profile.first_name || profile.email })
            : t("dashboard.welcome")}
        </Text>
      </Stack>
      {profileLoading ? <PageLoader /> : null}
      {profile && !profile.is_active ? <InactiveNotice email={profile.email} /> : null}
      {profile && profile.org_data.length === 0 ? (
        <Paper withBorder radius="md" p={{ base: "md", sm: "lg" }}>
          <Stack gap="sm">
            <Title order={2} fz="lg">
              {t("org.first_run_title")}
            </Title>
            <Text c="dimmed">{t("org.first_run_description")}</Text>
            <CreateOrganizationForm />
          </Stack>
        </Paper>
      ) : null}
      {currentOrg ? (
        <Paper withBorder radius="md" p={{ base: "md", sm: "lg" }}>
          <Stack gap="sm">
            <Group gap="sm">
              <Title order={2} fz="lg">
                {currentOrg.title}
              </Title>
              <Badge color={ROLE_COLORS[currentOrg.role]} variant="light">
                {t(roleKey(currentOrg.role))}
              </Badge>
            </Group>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Figure label={t("usage.users")} value={`${currentOrg.users_count}`} />
              <Figure label={t("usage.projects")} value={`${currentOrg.projects_count}`} />
              <Figure label={t("usage.builds")} value={`${currentOrg.builds_count}`} />
              <Figure label={t("usage.space")} value={`${currentOrg.space_used.toFixed(2)} MB`} />
            </SimpleGrid>
            {isAdminRole(currentOrg.role) ? (
              <Anchor component={Link} to="/dashboard/organization/plan" fz="sm">
                {t("menu.plan")}
              </Anchor>
            ) : null}
          </Stack>
        </Paper>
      ) : null}
      {currentOrg && currentOrg.builds_count === 0 && isAdminRole(currentOrg.role) ? (
        <Paper withBorder radius="md" p={{ base: "md", sm: "lg" }}>
          <Stack gap="sm" align="flex-start">
            <Title order={2} fz="lg">
              {t("dashboard.first_build_title")}
            </Title>
            <Text c="dimmed">{t("dashboard.first_build_description")}</Text>
            <Button component={Link} to="/dashboard/apps?add=1">
              {t("dashboard.first_build_action")}
            </Button>
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
    </Stack>
  );
}

function InactiveNotice({ email }: { email: string }) {
  const { t } = useTranslation();
  const resend = useMutation({ mutationFn: () => requestReinvite(email) });
  return (
    <Stack gap="xs">
      <Alert type="warning" message={t("dashboard.inactive")} timeout={0} dismissible={false} />
      {resend.isSuccess ? (
        <Text fz="sm" c="green.8" role="status">
          {t("activate.resend_done", { email })}
        </Text>
      ) : (
        <Button
          variant="light"
          size="xs"
          style={{ alignSelf: "flex-start" }}
          loading={resend.isPending}
          onClick={() => resend.mutate()}
        >
          {t("activate.resend_submit")}
        </Button>
      )}
    </Stack>
  );
}
