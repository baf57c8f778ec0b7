import { Anchor, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

export function DashboardNotFound() {
  const { t } = useTranslation();
  useDocumentTitle(t("not_found.title"));
  return (
    <Stack gap="xs">
      <Title order={1} fz={28}>
        {t("not_found.title")}
      </Title>
      <Text c="dimmed">{t("not_found.description")}</Text>
      <Anchor component={Link} to="/dashboard">
        {t("dashboard.back")}
      </Anchor>
    </Stack>
  );
}
