import { Card, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { contentKeys, fetchWhatsNew } from "../../api/content.ts";
import { useContentLanguage } from "../../api/use-content-language.ts";
import { formatDate } from "../../ui/format/date.ts";
import { HtmlBody } from "../../ui/html-body.tsx";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

/** What's new (GET /api/whats-new/), newest first; `#id` links to one entry. */
export function WhatsNewPage() {
  const { t } = useTranslation();
  const lang = useContentLanguage();
  useDocumentTitle(t("whats_new.title"));
  const query = useQuery({ queryKey: contentKeys.whatsNew(lang), queryFn: () => fetchWhatsNew(lang) });
  return (
    <PublicLayout wide>
      <Stack gap="xl" maw={800} mx="auto">
        <Title order={1}>{t("whats_new.title")}</Title>
        {query.isPending ? <PageLoader /> : null}
        {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
        {query.data?.results.length === 0 ? <Text c="dimmed">{t("whats_new.empty")}</Text> : null}
        {query.data?.results.map((entry) => (
          <Card key={entry.id} id={entry.id} withBorder radius="lg" padding="lg" component="article">
            <Stack gap="xs">
              <Title order={2} fz="xl">
                {entry.title}
              </Title>
              {entry.published_at ? (
                <Text fz="sm" c="dimmed">
                  {formatDate(entry.published_at, lang)}
                </Text>
              ) : null}
              <HtmlBody html={entry.html} />
            </Stack>
          </Card>
        ))}
      </Stack>
    </PublicLayout>
  );
}
