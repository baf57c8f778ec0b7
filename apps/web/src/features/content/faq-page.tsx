import { Accordion, Stack, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { contentKeys, fetchFaq } from "../../api/content.ts";
import { useContentLanguage } from "../../api/use-content-language.ts";
import { HtmlBody } from "../../ui/html-body.tsx";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

/** Frequently asked questions (GET /api/faq/), each answer opened on demand. */
export function FaqPage() {
  const { t } = useTranslation();
  const lang = useContentLanguage();
  const query = useQuery({ queryKey: contentKeys.faq(lang), queryFn: () => fetchFaq(lang) });
  const title = query.data?.title || t("faq.title");
  useDocumentTitle(title);
  return (
    <PublicLayout wide>
      <Stack gap="xl" maw={800} mx="auto">
        <Title order={1}>{title}</Title>
        {query.isPending ? <PageLoader /> : null}
        {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
        {query.data ? (
          <Accordion variant="separated" radius="md" multiple defaultValue={["0"]}>
            {query.data.items.map((item, index) => (
              <Accordion.Item key={item.question} value={String(index)}>
                <Accordion.Control>
                  <Title order={2} fz="md" fw={600}>
                    {item.question}
                  </Title>
                </Accordion.Control>
                <Accordion.Panel>
                  <HtmlBody html={item.answer_html} />
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        ) : null}
      </Stack>
    </PublicLayout>
  );
}
