import { Group, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

export function BrandMark() {
  const { t } = useTranslation();
  return (
    <Group gap={8} wrap="nowrap">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="var(--mantine-color-blue-6)" />
        <path d="M9 9h14v3.5h-5.2V24h-3.6V12.5H9z" fill="#fff" />
      </svg>
      <Text fw={700} fz="lg" c="dark.8">
        {t("brand")}
      </Text>
    </Group>
  );
}
