import { Button, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import {
  findBrowserSubscription,
  listPushSubscriptions,
  PushUnavailableError,
  pushKeys,
  pushSupported,
  sendTestPush,
  subscribeThisBrowser,
  unsubscribeThisBrowser,
} from "../../api/push.ts";
import { Alert } from "../../ui/alert.tsx";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { describeError } from "../../ui/error-text.ts";

function pushErrorText(error: unknown, t: TFunction): string {
  if (error instanceof PushUnavailableError) {
    return error.reason === "denied" ? t("push.denied") : t(`service_worker.${error.reason}`);
  }
  return describeError(error, t);
}

/** Notifications on this device: new builds, feedback on one's apps, finished store uploads. */
export function PushSection() {
  const { t, i18n } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const supported = pushSupported();
  const browser = useQuery({
    queryKey: pushKeys.browser(),
    queryFn: async () => (await findBrowserSubscription()) !== null,
    enabled: supported,
  });
  const devices = useQuery({ queryKey: pushKeys.subscriptions(), queryFn: listPushSubscriptions });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: pushKeys.browser() });
    void queryClient.invalidateQueries({ queryKey: pushKeys.subscriptions() });
  };
  const subscribe = useMutation({
    mutationFn: () => subscribeThisBrowser(i18n.resolvedLanguage ?? "en"),
    onSuccess: () => alerts.show({ type: "success", message: t("push.enabled") }),
    onSettled: refresh,
  });
  const unsubscribe = useMutation({
    mutationFn: unsubscribeThisBrowser,
    onSuccess: () => alerts.show({ type: "success", message: t("push.disabled") }),
    onSettled: refresh,
  });
  const test = useMutation({
    mutationFn: sendTestPush,
    onSuccess: (result) =>
      alerts.show({ type: "success", message: t("push.test_sent", { count: result.sent }) }),
  });
  const failure = subscribe.error ?? unsubscribe.error ?? test.error;
  const subscribed = browser.data === true;

  return (
    <Stack gap="sm" maw={520}>
      <Text fz="sm" c="dimmed">
        {t("push.description")}
      </Text>
      {supported ? null : <Alert type="warning" message={t("service_worker.unsupported")} timeout={0} />}
      {failure ? <Alert type="error" message={pushErrorText(failure, t)} timeout={0} /> : null}
      {supported && browser.isSuccess ? (
        <Text fz="sm" data-testid="push-state">
          {subscribed ? t("push.state_on") : t("push.state_off")}
        </Text>
      ) : null}
      {devices.data ? (
        <Text fz="sm" c="dimmed">
          {t("push.devices", { count: devices.data.length })}
        </Text>
      ) : null}
      <Group gap="xs">
        <Button
          variant="light"
          disabled={subscribed}
          loading={subscribe.isPending}
          onClick={() => {
            unsubscribe.reset();
            test.reset();
            subscribe.mutate();
          }}
        >
          {t("push.enable")}
        </Button>
        <Button
          variant="subtle"
          color="red"
          loading={unsubscribe.isPending}
          onClick={() => {
            subscribe.reset();
            test.reset();
            unsubscribe.mutate();
          }}
        >
          {t("push.disable")}
        </Button>
        <Button
          variant="subtle"
          disabled={!devices.data?.length}
          loading={test.isPending}
          onClick={() => test.mutate()}
        >
          {t("push.test")}
        </Button>
      </Group>
    </Stack>
  );
}
