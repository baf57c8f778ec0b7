import { Anchor, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { contentKeys, fetchBlogPage } from "../../api/content.ts";
import { formatDate } from "../../ui/format/date.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

export function BlogListPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("blog.title"));
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(searchParams.get("page") ?? "1", 10) || 1);
  const query = useQuery({ queryKey: contentKeys.blogList(page), queryFn: () => fetchBlogPage(page) });
  const goTo = (target: number) => setSearchParams(target === 1 ? {} : { page: String(target) });

  return (
    <PublicLayout wide>
      <Stack gap="xl" maw={800} mx="auto">
        <Title order={1}>{t("blog.title")}</Title>
        {query.isPending ? <PageLoader /> : null}
        {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
        {query.data && query.data.results.length === 0 ? <Text c="dimmed">{t("blog.empty")}</Text> : null}
        {query.data?.results.map((post) => (
          <Card key={post.slug} withBorder radius="lg" padding="lg" component="article">
            <Stack gap="xs">
              <Title order={2} fz="xl">
                <Anchor component={Link} to={`/blog/${encodeURIComponent(post.slug)}`} c="dark.8" inherit>
                  {post.title}
                </Anchor>
              </Title>
              {post.published_at ? (
                <Text fz="sm" c="dimmed">
                  {t("blog.published", {
                    date: formatDate(post.published_at, i18n.resolvedLanguage ?? "en"),
                  })}
                </Text>
              ) : null}
              {post.summary ? <Text>{post.summary}</Text> : null}
            </Stack>
          </Card>
        ))}
        {query.data && (query.data.previous || query.data.next) ? (
          <Group justify="space-between">
            <Button variant="default" disabled={!query.data.previous} onClick={() => goTo(page - 1)}>
              {t("blog.newer")}
            </Button>
            <Button variant="default" disabled={!query.data.next} onClick={() => goTo(page + 1)}>
              {t("blog.older")}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </PublicLayout>
  );
}
