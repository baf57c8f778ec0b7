import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { integrationKeys, type LogOwner, type WebhookDelivery } from "../../../api/integrations.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { describeError } from "../../../ui/error-text.ts";

/** "Send test event": says how the endpoint answered and refreshes the log that now holds it. */
export function useTestDelivery(send: () => Promise<WebhookDelivery>, owner: LogOwner) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (row) => {
      void queryClient.invalidateQueries({ queryKey: integrationKeys.deliveries(owner) });
      if (row.status === "succeeded") {
        alerts.show({
          type: "success",
          message: t("integrations.test_sent", { status: row.response_status }),
        });
      } else {
        alerts.show({
          type: "error",
          message: t("integrations.test_failed", {
            reason: row.error || `HTTP ${row.response_status ?? "—"} ${row.response_body}`.trim(),
          }),
        });
      }
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
}
