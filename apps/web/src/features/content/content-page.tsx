import { Paper, Stack, Title } from "@mantine/core";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useParams } from "react-router";
import { ApiError } from "../../api/client.ts";
import { type ContentPage as ContentPageData, contentKeys, fetchContentPage } from "../../api/content.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { TextBody } from "../../ui/text-body.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";
import { applySeo } from "./seo.ts";

/** Generic content page at /{page}: GET /api/pages/{slug}/; unknown pages go to /not-found. */
export function ContentPage() {
  const slug = useParams().page ?? "";
  const query = useQuery({ queryKey: contentKeys.page(slug), queryFn: () => fetchContentPage(slug) });
  useDocumentTitle(query.data?.seo?.seo_title || query.data?.title || null);
  useEffect(() => {
    if (query.data?.seo) applySeo(query.data.seo);
  }, [query.data]);

  if (query.isError && query.error instanceof ApiError && query.error.status === 404) {
    return <Navigate to="/not-found" replace />;
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
    <Paper withBorder radius="lg" p={{ base: "lg", sm: 40 }} maw={800} mx="auto">
      <Stack gap="lg">
        <Title order={1}>{query.data.title || t("brand")}</Title>
        {query.data.body ? <TextBody text={query.data.body} /> : null}
      </Stack>
    </Paper>
  );
}
