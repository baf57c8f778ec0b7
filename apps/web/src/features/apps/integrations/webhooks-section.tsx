// The webhooks that hear about this app (its own and the organization's), or on the organization's
// page every app's; each with its log.
import { Anchor, Badge, Button, Code, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  deleteWebhook,
  integrationKeys,
  listAppWebhooks,
  listOrganizationWebhooks,
  rotateWebhookSecret,
  sendWebhookTest,
  type Webhook,
  type WebhookListItem,
} from "../../../api/integrations.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../../ui/confirm-dialog.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { QueryList } from "../../../ui/query-list.tsx";
import { DeliveryLog } from "./delivery-log.tsx";
import { SecretDialog } from "./secret-dialog.tsx";
import { useTestDelivery } from "./use-test-delivery.ts";
import { WebhookDialog } from "./webhook-dialog.tsx";

/** `appId` null: the organization's page, which lists every app's webhooks and names their apps. */
export function WebhooksSection({ orgId, appId }: { orgId: number; appId: number | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = integrationKeys.webhooks(orgId, appId);
  const query = useQuery({
    queryKey: key,
    queryFn: () => (appId === null ? listOrganizationWebhooks(orgId) : listAppWebhooks(orgId, appId)),
  });
  const ofOrganization = appId === null;
  const [dialog, setDialog] = useState<{ editing: Webhook | null } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const saved = (hook: Webhook) => {
    setDialog(null);
    void queryClient.invalidateQueries({ queryKey: key });
    if (hook.secret) setSecret(hook.secret);
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Title order={2} fz="lg">
          {t("integrations.webhooks_title")}
        </Title>
        <Button onClick={() => setDialog({ editing: null })}>{t("integrations.add_webhook")}</Button>
      </Group>
      <Text c="dimmed" fz="sm">
        {t("integrations.webhooks_intro")}
        {ofOrganization ? ` ${t("org_integrations.webhooks_intro")}` : ""}
      </Text>
      <QueryList
        query={query}
        empty={ofOrganization ? t("org_integrations.no_webhooks") : t("integrations.no_webhooks")}
      >
        {(hooks) =>
          hooks.map((hook) => (
            <WebhookCard
              key={hook.id}
              hook={hook}
              showApp={ofOrganization}
              onEdit={() => setDialog({ editing: hook })}
              onSecret={setSecret}
              onChanged={() => void queryClient.invalidateQueries({ queryKey: key })}
            />
          ))
        }
      </QueryList>
      {dialog ? (
        <WebhookDialog
          orgId={orgId}
          appId={appId}
          editing={dialog.editing}
          onClose={() => setDialog(null)}
          onSaved={saved}
        />
      ) : null}
      {secret ? <SecretDialog secret={secret} onClose={() => setSecret(null)} /> : null}
    </Stack>
  );
}

function WebhookCard({
  hook,
  showApp,
  onEdit,
  onSecret,
  onChanged,
}: {
  hook: WebhookListItem;
  /** Name the app and link to its settings (the organization's page lists every app's). */
  showApp: boolean;
  onEdit: () => void;
  onSecret: (secret: string) => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const [showLog, setShowLog] = useState(false);
  const [confirming, setConfirming] = useState<"delete" | "rotate" | null>(null);
  const test = useTestDelivery(() => sendWebhookTest(hook.id), { webhook: hook.id });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(hook.id),
    onSuccess: () => {
      setConfirming(null);
      onChanged();
      alerts.show({ type: "success", message: t("integrations.webhook_deleted") });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const rotate = useMutation({
    mutationFn: () => rotateWebhookSecret(hook.id),
    onSuccess: (next) => {
      setConfirming(null);
      if (next.secret) onSecret(next.secret);
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <Paper withBorder radius="md" p="md" data-testid="webhook-card">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Code style={{ wordBreak: "break-all" }}>{hook.url}</Code>
          <Group gap={6}>
            <Badge variant="light">{t(`integrations.formats.${hook.format}`)}</Badge>
            {showApp && hook.app !== null ? (
              <AppSettingsLink appId={hook.app} title={hook.app_title ?? `#${hook.app}`} />
            ) : (
              <Badge variant="light" color="gray">
                {hook.app === null
                  ? t("integrations.scope_organization_short")
                  : t("integrations.scope_app_short")}
              </Badge>
            )}
            <Badge variant="light" color={hook.enabled ? "green" : "red"}>
              {hook.enabled ? t("integrations.on") : t("integrations.off")}
            </Badge>
          </Group>
        </Group>
        {hook.description ? <Text fz="sm">{hook.description}</Text> : null}
        {hook.disabled_reason ? (
          <Text fz="sm" c="red">
            {hook.disabled_reason}
          </Text>
        ) : null}
        <Group gap={4}>
          {hook.events.map((type) => (
            <Badge key={type} variant="outline" size="sm">
              {t(`integrations.event_names.${type.replace(".", "_")}`)}
            </Badge>
          ))}
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="default" loading={test.isPending} onClick={() => test.mutate()}>
            {t("integrations.send_test")}
          </Button>
          <Button size="xs" variant="default" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
            {showLog ? t("integrations.hide_log") : t("integrations.show_log")}
          </Button>
          <Button size="xs" variant="default" onClick={onEdit}>
            {t("integrations.edit")}
          </Button>
          {hook.format === "standard" ? (
            <Button size="xs" variant="default" onClick={() => setConfirming("rotate")}>
              {t("integrations.rotate_secret")}
            </Button>
          ) : null}
          <Button size="xs" variant="subtle" color="red" onClick={() => setConfirming("delete")}>
            {t("integrations.delete")}
          </Button>
        </Group>
        {showLog ? (
          <DeliveryLog owner={{ webhook: hook.id }} label={t("integrations.log_of", { url: hook.url })} />
        ) : null}
      </Stack>
      <ConfirmDialog
        opened={confirming !== null}
        title={confirming === "rotate" ? t("integrations.rotate_secret") : t("integrations.delete_webhook")}
        message={
          confirming === "rotate"
            ? t("integrations.rotate_confirm")
            : t("integrations.delete_confirm", { url: hook.url })
        }
        confirmLabel={confirming === "rotate" ? t("integrations.rotate_secret") : t("integrations.delete")}
        busy={remove.isPending || rotate.isPending}
        onConfirm={() => (confirming === "rotate" ? rotate.mutate() : remove.mutate())}
        onClose={() => setConfirming(null)}
      />
    </Paper>
  );
}

/** The app's Integrations tab, where its webhooks and chat channel are set up. */
export function AppSettingsLink({ appId, title }: { appId: number; title: string }) {
  const { t } = useTranslation();
  return (
    <Anchor
      component={Link}
      to={`/dashboard/apps/${appId}?tab=integrations`}
      fz="sm"
      aria-label={t("org_integrations.settings_of", { title })}
    >
      {title}
    </Anchor>
  );
}
