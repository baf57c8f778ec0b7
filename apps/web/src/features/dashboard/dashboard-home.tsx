import { Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

export function DashboardHome() {
  const { t } = useTranslation();
  useDocumentTitle(t("dashboard.title"));
  return (
    <Stack gap="xs">
      <Title order={1} fz={28}>
        {t("dashboard.title")}
      </Title>
      <Text c="dimmed">{t("dashboard.welcome")}</Text>
    </Stack>
  );
}
