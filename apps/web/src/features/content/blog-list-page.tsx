import { Anchor, Button, Card, Group, Image, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { blogFeedUrl, contentKeys, fetchBlogPage } from "../../api/content.ts";
import { useContentLanguage } from "../../api/use-content-language.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { BlogByline } from "./blog-byline.tsx";

export function BlogListPage() {
  const { t } = useTranslation();
  const lang = useContentLanguage();
  useDocumentTitle(t("blog.title"));
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(searchParams.get("page") ?? "1", 10) || 1);
  const query = useQuery({
    queryKey: contentKeys.blogList(page, lang),
    queryFn: () => fetchBlogPage(page, lang),
  });
  const goTo = (target: number) => setSearchParams(target === 1 ? {} : { page: String(target) });

  return (
    <PublicLayout wide>
      <Stack gap="xl" maw={800} mx="auto">
        <Group justify="space-between" align="baseline">
          <Title order={1}>{t("blog.title")}</Title>
          <Group gap="sm">
            <Anchor href={blogFeedUrl("rss", lang)} fz="sm">
              {t("blog.rss")}
            </Anchor>
            <Anchor href={blogFeedUrl("atom", lang)} fz="sm">
              {t("blog.atom")}
            </Anchor>
          </Group>
        </Group>
        {query.isPending ? <PageLoader /> : null}
        {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
        {query.data && query.data.results.length === 0 ? <Text c="dimmed">{t("blog.empty")}</Text> : null}
        {query.data?.results.map((post) => (
          <Card key={post.slug} withBorder radius="lg" padding="lg" component="article">
            {post.cover_image ? (
              <Card.Section mb="md">
                <Image src={post.cover_image} alt="" h={180} fit="cover" loading="lazy" />
              </Card.Section>
            ) : null}
            <Stack gap="xs">
              <Title order={2} fz="xl">
                <Anchor component={Link} to={`/blog/${encodeURIComponent(post.slug)}`} c="dark.8" inherit>
                  {post.title}
                </Anchor>
              </Title>
              <BlogByline post={post} />
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
