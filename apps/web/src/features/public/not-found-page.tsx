import { Button, Paper, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { contentKeys, findRedirect } from "../../api/content.ts";
import { missingPathOf } from "../../api/not-found-path.ts";
import { PageLoader } from "../../ui/page-loader.tsx";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

/**
 * The not-found page. Reached from an address that exists nowhere (`?from=` names it), it first
 * asks whether that address moved (GET /api/url-redirect/) and goes there if so.
 */
export function NotFoundPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const missing = missingPathOf(location.search);
  const redirect = useQuery({
    queryKey: contentKeys.redirect(missing ?? ""),
    queryFn: () => findRedirect(missing ?? ""),
    enabled: missing !== null,
    retry: false,
  });
  const target = redirect.data ?? null;
  useEffect(() => {
    if (!target) return;
    if (target.startsWith("/")) void navigate(target, { replace: true });
    else window.location.replace(target);
  }, [target, navigate]);
  useDocumentTitle(t("not_found.title"));

  const looking = missing !== null && (redirect.isPending || target !== null);
  return (
    <PublicLayout>
      {looking ? (
        <PageLoader />
      ) : (
        <Paper withBorder shadow="sm" radius="lg" p={{ base: "lg", sm: 32 }}>
          <Stack align="center" gap="sm">
            <Text fz={56} fw={800} c="blue.6" lh={1} aria-hidden="true">
              404
            </Text>
            <Title order={1} fz={24} ta="center">
              {t("not_found.title")}
            </Title>
            <Text c="dimmed" ta="center">
              {t("not_found.description")}
            </Text>
            <Button component={Link} to="/" mt="sm">
              {t("not_found.home")}
            </Button>
          </Stack>
        </Paper>
      )}
    </PublicLayout>
  );
}
