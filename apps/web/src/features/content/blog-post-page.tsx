import { Anchor, Image, Paper, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ApiError } from "../../api/client.ts";
import { contentKeys, fetchBlogPost } from "../../api/content.ts";
import { useContentLanguage } from "../../api/use-content-language.ts";
import { HtmlBody } from "../../ui/html-body.tsx";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { BlogByline } from "./blog-byline.tsx";

export function BlogPostPage() {
  const { t } = useTranslation();
  const lang = useContentLanguage();
  const slug = useParams().slug ?? "";
  const query = useQuery({
    queryKey: contentKeys.blogPost(slug, lang),
    queryFn: () => fetchBlogPost(slug, lang),
  });
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
              {query.data.cover_image ? (
                <Image src={query.data.cover_image} alt="" radius="md" h={240} fit="cover" />
              ) : null}
              <Stack gap={4}>
                <Title order={1}>{query.data.title}</Title>
                <BlogByline post={query.data} />
              </Stack>
              <HtmlBody html={query.data.html} />
            </Stack>
          </Paper>
        ) : null}
      </Stack>
    </PublicLayout>
  );
}
