// The app page's "Feedback" tab: what testers sent from inside the app, and the SDK switches.
import { Group, Stack, Switch, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import {
  type ApplicationRecord,
  applicationKeys,
  type MyAppRole,
  updateApplication,
} from "../../../api/applications.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { FeedbackList } from "./feedback-list.tsx";

export function FeedbackTab({ app, rights }: { app: ApplicationRecord; rights: MyAppRole }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (change: { feedback_enabled?: boolean; autoupdate_enabled?: boolean }) =>
      updateApplication(app.id, change),
    onSuccess: (next) => {
      queryClient.setQueryData(applicationKeys.detail(app.id), (current: ApplicationRecord | undefined) =>
        current
          ? {
              ...current,
              feedback_enabled: next.feedback_enabled,
              autoupdate_enabled: next.autoupdate_enabled,
            }
          : current,
      );
      alerts.show({ type: "success", message: t("feedback.switch_saved") });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <Stack gap="lg">
      {rights.can_edit ? (
        <Stack gap="xs">
          <Group gap="xl">
            <Switch
              label={t("feedback.enabled_switch")}
              checked={app.feedback_enabled}
              disabled={toggle.isPending}
              onChange={(event) => toggle.mutate({ feedback_enabled: event.currentTarget.checked })}
            />
            <Switch
              label={t("feedback.autoupdate_switch")}
              checked={app.autoupdate_enabled}
              disabled={toggle.isPending}
              onChange={(event) => toggle.mutate({ autoupdate_enabled: event.currentTarget.checked })}
            />
          </Group>
          <Text fz="sm" c="dimmed">
            {t("feedback.sdk_hint")}
          </Text>
        </Stack>
      ) : null}
      <FeedbackList
        scope={{ app: app.id }}
        showApp={false}
        canTriage={rights.can_upload || rights.can_edit}
      />
    </Stack>
  );
}
