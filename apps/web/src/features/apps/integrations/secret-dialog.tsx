// A webhook's signing secret, shown once: after it is closed, only rotating shows a new one.
import { Alert, Button, Code, Group, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useCopyWithAlert } from "../../../ui/use-copy-with-alert.ts";

export function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  const copy = useCopyWithAlert();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t("integrations.secret_title")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <Stack gap="md">
        <Alert color="yellow">{t("integrations.secret_once")}</Alert>
        <Code block data-testid="webhook-secret">
          {secret}
        </Code>
        <Text fz="sm" c="dimmed">
          {t("integrations.secret_hint")}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => void copy(secret)}>
            {t("integrations.copy_secret")}
          </Button>
          <Button onClick={onClose}>{t("integrations.secret_done")}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
