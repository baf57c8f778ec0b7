import { Button, Group, Paper, Text } from "@mantine/core";
import { useEffect, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { applyUpdate, isUpdateWaiting, registerServiceWorker, subscribeToUpdates } from "./service-worker.ts";

/**
 * Registers the service worker after the first render, and asks to reload when a new release
 * is waiting: the open page keeps running the release it loaded until the user says so.
 */
export function UpdatePrompt() {
  const { t } = useTranslation();
  const waiting = useSyncExternalStore(subscribeToUpdates, isUpdateWaiting, () => false);
  const [dismissed, setDismissed] = useState(false);
  const [reloading, setReloading] = useState(false);

  useEffect(() => {
    void registerServiceWorker();
  }, []);

  if (!waiting || dismissed) return null;
  return (
    <Paper
      role="alertdialog"
      aria-labelledby="update-prompt-text"
      shadow="md"
      withBorder
      p="sm"
      pos="fixed"
      bottom={16}
      right={16}
      maw={360}
      style={{ zIndex: 400 }}
    >
      <Text id="update-prompt-text" size="sm" mb="xs">
        {t("pwa.update_available")}
      </Text>
      <Group justify="flex-end" gap="xs">
        <Button variant="subtle" size="xs" onClick={() => setDismissed(true)}>
          {t("pwa.later")}
        </Button>
        <Button
          size="xs"
          loading={reloading}
          onClick={() => {
            setReloading(true);
            applyUpdate();
          }}
        >
          {t("pwa.reload")}
        </Button>
      </Group>
    </Paper>
  );
}
