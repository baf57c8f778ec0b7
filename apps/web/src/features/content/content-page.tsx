import { Paper, Stack, Text, Title } from "@mantine/core";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation, useParams } from "react-router";
import { ApiError } from "../../api/client.ts";
import {
  type ContentPage as ContentPageData,
  contentKeys,
  fetchContentPage,
  fetchSinglePage,
  type PagePath,
} from "../../api/content.ts";
import { notFoundPathFor } from "../../api/not-found-path.ts";
import { useContentLanguage } from "../../api/use-content-language.ts";
import { HtmlBody } from "../../ui/html-body.tsx";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { applySeo } from "./seo.ts";

/** Generic content page at /{page}: GET /api/pages/{slug}/; unknown pages go to /not-found. */
export function ContentPage() {
  const slug = useParams().page ?? "";
  const lang = useContentLanguage();
  const query = useQuery({
    queryKey: contentKeys.page(slug, lang),
    queryFn: () => fetchContentPage(slug, lang),
  });
  return <ContentPageView query={query} />;
}

/** The SDK page at /sdk: GET /api/page-sdk/. */
export function SdkPage() {
  return <SinglePage path="page-sdk" />;
}

function SinglePage({ path }: { path: PagePath }) {
  const lang = useContentLanguage();
  const query = useQuery({
    queryKey: contentKeys.single(path, lang),
    queryFn: () => fetchSinglePage(path, lang),
  });
  return <ContentPageView query={query} />;
}

function ContentPageView({ query }: { query: UseQueryResult<ContentPageData> }) {
  const location = useLocation();
  useDocumentTitle(query.data?.title || null);
  useEffect(() => {
    if (query.data?.seo) applySeo(query.data.seo);
  }, [query.data]);

  if (query.isError && query.error instanceof ApiError && query.error.status === 404) {
    // The not-found page first asks whether this address moved.
    return <Navigate to={notFoundPathFor(location.pathname)} replace />;
  }
  return (
    <PublicLayout wide>
      <ContentBody query={query} />
    </PublicLayout>
  );
}

function ContentBody({ query }: { query: UseQueryResult<ContentPageData> }) {
  const { t } = useTranslation();
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  return (
    <Paper withBorder radius="lg" p={{ base: "lg", sm: 40 }} maw={800} mx="auto" component="article">
      <Stack gap="lg">
        <Title order={1}>{query.data.title || t("brand")}</Title>
        {query.data.html ? <HtmlBody html={query.data.html} /> : <Text c="dimmed">{t("content.empty")}</Text>}
      </Stack>
    </Paper>
  );
}
