import { Button, Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { fetchTariffs, planKeys, type Tariff } from "../../api/plans.ts";
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

export function PricingPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("pricing.title"));
  const query = useQuery({ queryKey: planKeys.tariffs(), queryFn: fetchTariffs });
  const language = i18n.resolvedLanguage ?? "en";

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
            {query.data.map((tariff) => (
              <Card key={tariff.id} withBorder radius="lg" padding="xl" shadow="xs">
                <Stack gap="md" h="100%">
                  <Title order={2} fz="xl">
                    {tariff.title}
                  </Title>
                  <Text fz={28} fw={700}>
                    {formatPrice(tariff, language, t)}
                  </Text>
                  <PlanLimitsList plan={tariff} spacing={6} style={{ flexGrow: 1 }} />
                  <Button component={Link} to="/signup" fullWidth>
                    {t("pricing.cta")}
                  </Button>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        ) : null}
      </Stack>
    </PublicLayout>
  );
}
