import { Button, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** What a page shows when its content could not be fetched. */
export function LoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="sm" py="xl" role="alert">
      <Text c="dimmed" ta="center">
        {t("errors.load_failed")}
      </Text>
      <Button variant="light" onClick={onRetry}>
        {t("common.retry")}
      </Button>
    </Stack>
  );
}
