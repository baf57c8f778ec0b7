import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { contentKeys, fetchLanding } from "../../api/content.ts";
import { useContentLanguage } from "../../api/use-content-language.ts";
import { HtmlBody } from "../../ui/html-body.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { applySeo } from "./seo.ts";

const PLATFORM_KEYS = ["platforms.android", "platforms.ios", "platforms.windows", "platforms.macos"] as const;

/**
 * The promo landing, written by the editors (GET /api/lp/): its introduction, then one card per
 * section. The product's own one-line description stands in while it loads or when there is none.
 */
export function PromoPage() {
  const { t } = useTranslation();
  const lang = useContentLanguage();
  const query = useQuery({
    queryKey: contentKeys.landing(lang),
    queryFn: () => fetchLanding(lang),
    retry: false,
  });
  const landing = query.data;
  useDocumentTitle(landing?.title || t("promo.title"));
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
          {landing?.intro_html ? (
            <Text component="div" c="dimmed" fz="lg" ta="center">
              <HtmlBody html={landing.intro_html} />
            </Text>
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
        {landing?.sections.length ? (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            {landing.sections.map((section) => (
              <Card key={section.heading} withBorder radius="lg" padding="lg" component="section">
                <Stack gap="xs">
                  <Title order={2} fz="lg">
                    {section.heading}
                  </Title>
                  <HtmlBody html={section.html} />
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        ) : null}
        <Group justify="center">
          <Button component={Link} to="/pricing" variant="subtle">
            {t("promo.cta_pricing")}
          </Button>
        </Group>
      </Stack>
    </PublicLayout>
  );
}
