import { Button, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { contentKeys, fetchLanding } from "../../api/content.ts";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { TextBody } from "../../ui/text-body.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { applySeo } from "./seo.ts";

const PLATFORM_KEYS = ["platforms.android", "platforms.ios", "platforms.windows", "platforms.macos"] as const;

/**
 * The promo landing. Its copy comes from GET /api/lp/ when the operator has written one; the
 * product's own description stands in while it loads or when there is none.
 */
export function PromoPage() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: contentKeys.landing(), queryFn: fetchLanding });
  const landing = query.data;
  useDocumentTitle(landing?.seo?.seo_title || landing?.title || t("promo.title"));
  useEffect(() => {
    if (landing?.seo) applySeo(landing.seo);
  }, [landing]);

  return (
    <PublicLayout wide>
      <Stack gap={48} py={{ base: "md", sm: "xl" }}>
        <Stack gap="lg" align="center" maw={760} mx="auto">
          <Title order={1} ta="center" fz={{ base: 32, sm: 48 }} lh={1.15}>
            {landing?.title || t("promo.title")}
          </Title>
          {landing?.body ? (
            <TextBody text={landing.body} />
          ) : (
            <Text c="dimmed" fz="lg" ta="center">
              {t("promo.subtitle")}
            </Text>
          )}
          <Group justify="center">
            <Button component={Link} to="/signup" size="md">
              {t("promo.cta_signup")}
            </Button>
            <Button component={Link} to="/login" size="md" variant="default">
              {t("promo.cta_login")}
            </Button>
          </Group>
        </Stack>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" maw={760} mx="auto" w="100%">
          {PLATFORM_KEYS.map((key) => (
            <Text key={key} ta="center" fw={600} c="dark.6" py="md" className="platform-tile">
              {t(key)}
            </Text>
          ))}
        </SimpleGrid>
        <Group justify="center">
          <Button component={Link} to="/pricing" variant="subtle">
            {t("promo.cta_pricing")}
          </Button>
        </Group>
      </Stack>
    </PublicLayout>
  );
}
