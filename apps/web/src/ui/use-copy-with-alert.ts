import { useTranslation } from "react-i18next";
import { useAlerts } from "./alerts-provider.tsx";
import { copyText } from "./copy.ts";

/** Copies text and confirms with the spec's 'COPIED TO CLIPBOARD' alert (§8). */
export function useCopyWithAlert(): (text: string) => Promise<void> {
  const { t } = useTranslation();
  const alerts = useAlerts();
  return async (text: string) => {
    if (await copyText(text)) alerts.show({ type: "success", message: t("COPIED TO CLIPBOARD") });
    else alerts.show({ type: "error", message: t("distribution.copy_failed") });
  };
}
