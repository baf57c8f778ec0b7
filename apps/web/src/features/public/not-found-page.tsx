import { Button, Paper, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("not_found.title"));
  return (
    <PublicLayout>
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
    </PublicLayout>
  );
}
