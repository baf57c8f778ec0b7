import { Button, Center, Progress, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Outlet, ScrollRestoration, useNavigation } from "react-router";
import { PageViewTracker } from "./analytics/page-view.ts";
import { UpdatePrompt } from "./pwa/update-prompt.tsx";
import { useDocumentTitle } from "./ui/use-document-title.ts";

/** The root only hosts the outlet (spec §2), plus what every navigation needs. */
export function RootLayout() {
  const navigation = useNavigation();
  const { t } = useTranslation();
  return (
    <>
      {navigation.state === "loading" ? (
        <Progress
          className="navigation-progress"
          value={100}
          animated
          size="xs"
          radius={0}
          aria-label={t("common.loading")}
        />
      ) : null}
      <Outlet />
      <PageViewTracker />
      <UpdatePrompt />
      <ScrollRestoration />
    </>
  );
}

/** Shown when a route area fails to load, e.g. after a deployment replaced its chunk. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("route_error.title"));
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="sm" maw={420}>
        <Title order={1} fz={24}>
          {t("route_error.title")}
        </Title>
        <Text c="dimmed" ta="center">
          {t("route_error.description")}
        </Text>
        <Button onClick={() => window.location.reload()}>{t("route_error.reload")}</Button>
      </Stack>
    </Center>
  );
}
