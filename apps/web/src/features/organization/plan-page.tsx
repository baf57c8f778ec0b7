import { Anchor, Badge, Group, Progress, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import { fetchOrganization, organizationKeys } from "../../api/organizations.ts";
import { fetchUsage, planKeys } from "../../api/plans.ts";
import { isAdminRole } from "../../api/roles.ts";
import { Alert } from "../../ui/alert.tsx";
import { toPercent } from "../../ui/format/percent.ts";
import { formatStorage } from "../../ui/format/size.ts";
import { limitWayOut, withWayOut } from "../../ui/limit-way-out.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageFrame, ProfileGate, Section } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { HostedBilling } from "./billing/hosted-billing.tsx";

export function PlanPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("plan.title")} description={t("plan.description")}>
      <ProfileGate needsOrg allow={isAdminRole}>
        {(_profile, org) => (org ? <PlanDetails org={org} /> : null)}
      </ProfileGate>
    </PageFrame>
  );
}

/** Counts and storage (MB) in the reader's language. */
function useFormats() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  return {
    count: (value: number) => new Intl.NumberFormat(language).format(value),
    storage: (value: number) => formatStorage(value, language),
  };
}

function barColor(percent: number): string {
  if (percent >= 100) return "red";
  if (percent > 75) return "orange";
  return "blue";
}

function UsageBar({
  label,
  used,
  limit,
  format,
}: {
  label: string;
  used: number;
  limit: number;
  format: (n: number) => string;
}) {
  const { t } = useTranslation();
  const percent = toPercent(used, limit);
  const text = limit
    ? t("plan.used_of", { used: format(used), limit: format(limit) })
    : t("plan.used_unlimited", { used: format(used) });
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text fz="sm" fw={600}>
          {label}
        </Text>
        <Text fz="sm" c="dimmed">
          {text}
        </Text>
      </Group>
      <Progress
        value={limit ? percent : 0}
        color={barColor(percent)}
        aria-label={`${label}: ${text}`}
        size="lg"
      />
    </Stack>
  );
}

function PlanDetails({ org }: { org: OrgData }) {
  const { t } = useTranslation();
  const { count, storage } = useFormats();
  const usage = useQuery({ queryKey: planKeys.usage(org.org_id), queryFn: () => fetchUsage(org.org_id) });
  const wayOut = limitWayOut(usage.data, t);
  // Subscription, prices and invoices only where organizations pay for plans; elsewhere the administrator sets them.
  const billing = wayOut?.managedBy === "billing";
  const organization = useQuery({
    queryKey: organizationKeys.detail(org.org_id),
    queryFn: () => fetchOrganization(org.org_id),
  });

  return (
    <Stack gap="lg">
      {wayOut?.managedBy === "administrator" ? (
        <ManagedPlan planTitle={organization.data?.plan.title} email={wayOut.email} />
      ) : null}
      <Section title={t("plan.usage")}>
        {usage.isPending ? <PageLoader /> : null}
        {usage.isError ? <LoadError onRetry={() => void usage.refetch()} /> : null}
        {usage.data ? (
          <Stack gap="md">
            {usage.data.critical ? (
              <Alert
                type="error"
                message={withWayOut(t("plan.critical"), wayOut)}
                timeout={0}
                dismissible={false}
              />
            ) : null}
            <UsageBar
              label={t("usage.space")}
              used={usage.data.space_used}
              limit={usage.data.space_limit}
              format={storage}
            />
            {usage.data.pending_uploads > 0 ? (
              <Text size="sm" c="dimmed">
                {t("plan.pending", {
                  count: usage.data.pending_uploads,
                  size: storage(usage.data.pending_space),
                })}
              </Text>
            ) : null}
            <UsageBar
              label={t("usage.builds")}
              used={usage.data.builds_count}
              limit={usage.data.build_limit}
              format={count}
            />
            <UsageBar
              label={t("usage.projects")}
              used={usage.data.projects_count}
              limit={usage.data.projects_limit}
              format={count}
            />
            <UsageBar
              label={t("usage.users")}
              used={usage.data.users_count}
              limit={usage.data.user_limit}
              format={count}
            />
          </Stack>
        ) : null}
      </Section>
      {billing ? <HostedBilling org={org} /> : null}
    </Stack>
  );
}

/** Where nobody buys plans: the plan the administrator chose, and how to reach them. */
function ManagedPlan({ planTitle, email }: { planTitle: string | undefined; email: string | null }) {
  const { t } = useTranslation();
  return (
    <Section title={t("plan.your_plan")}>
      {planTitle ? (
        <Group gap="xs">
          <Text fw={600}>{t("plan.current")}</Text>
          <Badge size="lg">{planTitle}</Badge>
        </Group>
      ) : null}
      <Text>{t("plan.managed_by_administrator")}</Text>
      {email ? (
        <Text>
          {t("plan.administrator_contact")} <Anchor href={`mailto:${email}`}>{email}</Anchor>
        </Text>
      ) : null}
    </Section>
  );
}
