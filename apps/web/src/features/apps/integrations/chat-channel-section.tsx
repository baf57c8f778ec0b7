// The app's chat channel: a Slack, Microsoft Teams or Discord incoming webhook told of new builds.
import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type ChatWebhook,
  fetchChatChannel,
  integrationKeys,
  removeChatChannel,
  saveChatChannel,
  sendChatTest,
} from "../../../api/integrations.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../../ui/confirm-dialog.tsx";
import { FormAlert } from "../../../ui/forms/form-alert.tsx";
import { useFormErrors } from "../../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { DeliveryLog } from "./delivery-log.tsx";
import { useTestDelivery } from "./use-test-delivery.ts";

const FIELDS = ["slack_webhook", "slack_channel", "chat_format"] as const;
const CHOICES = ["auto", "slack", "teams", "discord"] as const;
type Choice = (typeof CHOICES)[number];

export function ChatChannelSection({ appId }: { appId: number }) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: integrationKeys.chat(appId), queryFn: () => fetchChatChannel(appId) });
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        {t("integrations.chat_title")}
      </Title>
      <Text c="dimmed" fz="sm">
        {t("integrations.chat_intro")}
      </Text>
      {query.isPending ? (
        <Text c="dimmed">{t("common.loading")}</Text>
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} />
      ) : (
        <ChatForm key={query.data.slack_webhook} appId={appId} saved={query.data} />
      )}
    </Stack>
  );
}

function ChatForm({ appId, saved }: { appId: number; saved: ChatWebhook }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const formErrors = useFormErrors(FIELDS);
  const [confirming, setConfirming] = useState(false);
  const [form, setForm] = useState({
    slack_webhook: saved.slack_webhook,
    slack_channel: saved.slack_channel,
    chat_format: "auto" as Choice,
  });
  const configured = saved.slack_webhook !== "";
  const refresh = (next: ChatWebhook | null) => {
    queryClient.setQueryData(
      integrationKeys.chat(appId),
      next ?? { app: appId, slack_webhook: "", slack_channel: "", chat_format: null },
    );
    void queryClient.invalidateQueries({ queryKey: integrationKeys.deliveries({ chatOfApp: appId }) });
  };
  const save = useMutation({
    mutationFn: () => saveChatChannel(appId, form),
    onSuccess: (next) => {
      refresh(next);
      alerts.show({ type: "success", message: t("integrations.chat_saved") });
    },
    onError: formErrors.showError,
  });
  const remove = useMutation({
    mutationFn: () => removeChatChannel(appId),
    onSuccess: () => {
      setConfirming(false);
      refresh(null);
      alerts.show({ type: "success", message: t("integrations.chat_removed") });
    },
    onError: formErrors.showError,
  });
  const test = useTestDelivery(() => sendChatTest(appId), { chatOfApp: appId });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };
  return (
    <Stack gap="md">
      {configured ? (
        <Text data-testid="chat-status">
          {t("integrations.chat_status", {
            service: t(`integrations.formats.${saved.chat_format ?? "slack"}`),
          })}
        </Text>
      ) : null}
      <form onSubmit={submit} aria-label={t("integrations.chat_title")}>
        <Stack gap="sm" maw={720}>
          <FormAlert state={formErrors} />
          <TextInput
            label={t("integrations.chat_url")}
            description={t("integrations.chat_url_hint")}
            required
            type="url"
            value={form.slack_webhook}
            onChange={(event) => setForm({ ...form, slack_webhook: event.currentTarget.value })}
            error={formErrors.errors.fields.slack_webhook}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t("integrations.chat_service")}
              data={CHOICES.map((value) => ({ value, label: t(`integrations.formats.${value}`) }))}
              value={form.chat_format}
              onChange={(value) => setForm({ ...form, chat_format: (value ?? "auto") as Choice })}
              allowDeselect={false}
              error={formErrors.errors.fields.chat_format}
            />
            <TextInput
              label={t("integrations.chat_channel")}
              description={t("integrations.chat_channel_hint")}
              value={form.slack_channel}
              onChange={(event) => setForm({ ...form, slack_channel: event.currentTarget.value })}
              error={formErrors.errors.fields.slack_channel}
            />
          </SimpleGrid>
          <Group gap="sm">
            <Button type="submit" loading={save.isPending}>
              {t("common.save")}
            </Button>
            {configured ? (
              <>
                <Button variant="default" loading={test.isPending} onClick={() => test.mutate()}>
                  {t("integrations.send_test")}
                </Button>
                <Button variant="subtle" color="red" onClick={() => setConfirming(true)}>
                  {t("integrations.chat_remove")}
                </Button>
              </>
            ) : null}
          </Group>
        </Stack>
      </form>
      {configured ? <DeliveryLog owner={{ chatOfApp: appId }} label={t("integrations.chat_log")} /> : null}
      <ConfirmDialog
        opened={confirming}
        title={t("integrations.chat_remove")}
        message={t("integrations.chat_remove_confirm")}
        confirmLabel={t("integrations.chat_remove")}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
