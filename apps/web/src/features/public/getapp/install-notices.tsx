// Warnings the install page shows before the buttons: embedded browsers and plain-HTTP servers.
import { Alert, Button, Stack, Text } from "@mantine/core";
import type { DevicePlatform, InAppBrowser } from "@tarmac/contracts";
import { useTranslation } from "react-i18next";
import { systemBrowserKey } from "../../../ui/install-platform.ts";
import { useCopyWithAlert } from "../../../ui/use-copy-with-alert.ts";

/** Embedded viewers (Instagram, Gmail on iOS ...) cannot install builds or profiles. */
export function InAppBrowserNotice({
  device,
  browser,
}: {
  device: DevicePlatform;
  browser: InAppBrowser | null;
}) {
  const { t } = useTranslation();
  const copy = useCopyWithAlert();
  if (!browser) return null;
  const target = t(systemBrowserKey(device));
  return (
    <Alert color="yellow" title={t("install.in_app_title", { browser: target })}>
      <Stack gap="xs" align="flex-start">
        <Text fz="sm">{t("install.in_app_text", { browser: target })}</Text>
        <Button size="xs" variant="white" onClick={() => void copy(window.location.href)}>
          {t("install.copy_link")}
        </Button>
      </Stack>
    </Alert>
  );
}

/** iOS refuses over-the-air installs from a server that is not on HTTPS. */
export function HttpsNotice() {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t("install.https_title")}>
      <Text fz="sm">{t("install.https_text")}</Text>
    </Alert>
  );
}
