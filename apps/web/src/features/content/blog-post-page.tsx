import { Anchor, Paper, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ApiError } from "../../api/client.ts";
import { contentKeys, fetchBlogPost } from "../../api/content.ts";
import { formatDate } from "../../ui/format/date.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { TextBody } from "../../ui/text-body.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

export function BlogPostPage() {
  const { t, i18n } = useTranslation();
  const slug = useParams().slug ?? "";
  const query = useQuery({ queryKey: contentKeys.blogPost(slug), queryFn: () => fetchBlogPost(slug) });
  useDocumentTitle(query.data?.title ?? t("blog.title"));
  const missing = query.isError && query.error instanceof ApiError && query.error.status === 404;

  return (
    <PublicLayout wide>
      <Stack gap="lg" maw={800} mx="auto">
        <Anchor component={Link} to="/blog" fz="sm">
          {t("blog.back")}
        </Anchor>
        {query.isPending ? <PageLoader /> : null}
        {missing ? <Text c="dimmed">{t("blog.not_found")}</Text> : null}
        {query.isError && !missing ? <LoadError onRetry={() => void query.refetch()} /> : null}
        {query.data ? (
          <Paper withBorder radius="lg" p={{ base: "lg", sm: 40 }} component="article">
            <Stack gap="lg">
              <Stack gap={4}>
                <Title order={1}>{query.data.title}</Title>
                {query.data.published_at ? (
                  <Text fz="sm" c="dimmed">
                    {t("blog.published", {
                      date: formatDate(query.data.published_at, i18n.resolvedLanguage ?? "en"),
                    })}
                  </Text>
                ) : null}
              </Stack>
              <TextBody text={query.data.body} />
            </Stack>
          </Paper>
        ) : null}
      </Stack>
    </PublicLayout>
  );
}
