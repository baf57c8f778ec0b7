import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { accountKeys, fetchProfile, type OrgData } from "../../api/account.ts";
import { pickCurrentOrg } from "../../api/dashboard-context.tsx";
import { fetchTariffs, planKeys, type Tariff } from "../../api/plans.ts";
import { CURRENT_ORG_ID_KEY } from "../../api/token.ts";
import { useLoggedIn } from "../../api/use-logged-in.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PlanLimitsList } from "../../ui/plan-limits-list.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

function formatPrice(tariff: Tariff, language: string, t: TFunction): string {
  const amount = Number(tariff.price ?? 0);
  if (!Number.isFinite(amount) || amount === 0) return t("pricing.free");
  const formatted = tariff.currency
    ? new Intl.NumberFormat(language, { style: "currency", currency: tariff.currency }).format(amount)
    : new Intl.NumberFormat(language).format(amount);
  return t("pricing.per_month", { price: formatted });
}

/** The organization the signed-in person last worked in (as the dashboard remembers it). */
function useCurrentOrganization(): OrgData | null {
  const loggedIn = useLoggedIn();
  const profile = useQuery({ queryKey: accountKeys.profile(), queryFn: fetchProfile, enabled: loggedIn });
  if (!loggedIn || !profile.data) return null;
  const stored = Number(localStorage.getItem(CURRENT_ORG_ID_KEY));
  return pickCurrentOrg(profile.data.org_data, Number.isInteger(stored) && stored > 0 ? stored : null);
}

export function PricingPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("pricing.title"));
  const query = useQuery({ queryKey: planKeys.tariffs(), queryFn: fetchTariffs });
  const language = i18n.resolvedLanguage ?? "en";
  const organization = useCurrentOrganization();
  const currentPlanId = organization?.plan?.id ?? null;

  return (
    <PublicLayout wide>
      <Stack gap="xl">
        <Stack gap={4} align="center">
          <Title order={1}>{t("pricing.title")}</Title>
          <Text c="dimmed" ta="center">
            {t("pricing.subtitle")}
          </Text>
        </Stack>
        {query.isPending ? <PageLoader /> : null}
        {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
        {query.data && query.data.length === 0 ? (
          <Text c="dimmed" ta="center">
            {t("pricing.empty")}
          </Text>
        ) : null}
        {query.data && query.data.length > 0 ? (
          <SimpleGrid cols={{ base: 1, sm: 2, md: Math.min(query.data.length, 4) }} spacing="lg">
            {query.data.map((tariff) => {
              const current = tariff.id === currentPlanId;
              return (
                <Card
                  key={tariff.id}
                  withBorder
                  radius="lg"
                  padding="xl"
                  shadow="xs"
                  aria-current={current ? "true" : undefined}
                  className={current ? "pricing-current" : undefined}
                >
                  <Stack gap="md" h="100%">
                    <Group justify="space-between" gap="xs">
                      <Title order={2} fz="xl">
                        {tariff.title}
                      </Title>
                      {current ? <Badge variant="light">{t("pricing.current")}</Badge> : null}
                    </Group>
                    <Text fz={28} fw={700}>
                      {formatPrice(tariff, language, t)}
                    </Text>
                    <PlanLimitsList plan={tariff} spacing={6} style={{ flexGrow: 1 }} />
                    {current && organization ? (
                      <Text fz="sm" c="dimmed">
                        {t("pricing.current_for", { organization: organization.title })}
                      </Text>
                    ) : null}
                    {organization ? (
                      <Button
                        component={Link}
                        to="/dashboard/organization/plan"
                        fullWidth
                        variant={current ? "default" : "filled"}
                      >
                        {current ? t("pricing.manage") : t("pricing.change")}
                      </Button>
                    ) : (
                      <Button component={Link} to="/signup" fullWidth>
                        {t("pricing.cta")}
                      </Button>
                    )}
                  </Stack>
                </Card>
              );
            })}
          </SimpleGrid>
        ) : null}
      </Stack>
    </PublicLayout>
  );
}
