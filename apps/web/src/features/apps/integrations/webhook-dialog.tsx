// Adding or changing a webhook: where it posts, in which shape, which events, for which apps.
import { Checkbox, Modal, Radio, SimpleGrid, Stack, Switch, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  createWebhook,
  updateWebhook,
  type Webhook,
  type WebhookEventType,
  type WebhookFormat,
  webhookEventTypes,
  webhookFormats,
} from "../../../api/integrations.ts";
import { listDeveloperAccounts, storeKeys } from "../../../api/store.ts";
import { FieldRow } from "../../../ui/forms/field-row.tsx";
import { FitSelect } from "../../../ui/forms/fit-select.tsx";
import { FormAlert } from "../../../ui/forms/form-alert.tsx";
import { FormDialogActions } from "../../../ui/forms/form-dialog-actions.tsx";
import { useFormErrors } from "../../../ui/forms/use-form-errors.ts";
import { AppScopeSelect, EVERY_APP } from "./app-scope-select.tsx";

const FIELDS = ["url", "format", "events", "enabled", "description", "app"] as const;

/** A new webhook hears about builds becoming installable until told otherwise. */
const DEFAULT_EVENTS: WebhookEventType[] = ["build.ready"];

export function WebhookDialog({
  orgId,
  appId,
  editing,
  onClose,
  onSaved,
}: {
  orgId: number;
  /** The app whose tab adds it; null on the organization's page, which asks which app. */
  appId: number | null;
  /** The webhook to change; null adds one. */
  editing: Webhook | null;
  onClose: () => void;
  onSaved: (saved: Webhook) => void;
}) {
  const { t } = useTranslation();
  const formErrors = useFormErrors(FIELDS);
  const offered = useOfferedEvents(orgId, editing);
  const [form, setForm] = useState({
    url: editing?.url ?? "",
    format: editing?.format ?? ("standard" as WebhookFormat),
    events: editing?.events ?? DEFAULT_EVENTS,
    enabled: editing?.enabled ?? true,
    description: editing?.description ?? "",
    scope: editing ? (editing.app === null ? "organization" : "app") : "app",
    chosenApp: EVERY_APP,
  });
  const appOfNewHook = () => {
    if (appId === null) return form.chosenApp === EVERY_APP ? null : Number(form.chosenApp);
    return form.scope === "app" ? appId : null;
  };
  const save = useMutation({
    mutationFn: () => {
      const settings = {
        url: form.url,
        format: form.format,
        events: form.events,
        enabled: form.enabled,
        description: form.description,
      };
      return editing
        ? updateWebhook(editing.id, settings)
        : createWebhook({ ...settings, organization: orgId, app: appOfNewHook() });
    },
    onSuccess: onSaved,
    onError: formErrors.showError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={editing ? t("integrations.edit_webhook") : t("integrations.add_webhook")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit}>
        <Stack gap="md">
          <FormAlert state={formErrors} />
          <TextInput
            label={t("integrations.url")}
            required
            type="url"
            data-autofocus
            placeholder="https://example.com/tarmac-webhook"
            value={form.url}
            onChange={(event) => setForm({ ...form, url: event.currentTarget.value })}
            error={formErrors.errors.fields.url}
          />
          <FieldRow>
            <FitSelect
              label={t("integrations.format")}
              data={webhookFormats.map((value) => ({ value, label: t(`integrations.formats.${value}`) }))}
              value={form.format}
              onChange={(value) => setForm({ ...form, format: (value ?? "standard") as WebhookFormat })}
              allowDeselect={false}
              error={formErrors.errors.fields.format}
            />
            <TextInput
              label={t("integrations.description")}
              value={form.description}
              onChange={(event) => setForm({ ...form, description: event.currentTarget.value })}
              error={formErrors.errors.fields.description}
            />
          </FieldRow>
          {editing ? null : appId === null ? (
            <AppScopeSelect
              orgId={orgId}
              value={form.chosenApp}
              onChange={(chosenApp) => setForm({ ...form, chosenApp })}
              error={formErrors.errors.fields.app}
            />
          ) : (
            <Radio.Group
              label={t("integrations.scope")}
              value={form.scope}
              onChange={(value) => setForm({ ...form, scope: value })}
              error={formErrors.errors.fields.app}
            >
              <Stack gap={6} mt={6}>
                <Radio value="app" label={t("integrations.scope_app")} />
                <Radio value="organization" label={t("integrations.scope_organization")} />
              </Stack>
            </Radio.Group>
          )}
          <Checkbox.Group
            label={t("integrations.events")}
            value={form.events}
            onChange={(values) => setForm({ ...form, events: values as WebhookEventType[] })}
            error={formErrors.errors.fields.events}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt={6} spacing={6}>
              {offered.map((type) => (
                <Checkbox
                  key={type}
                  value={type}
                  label={t(`integrations.event_names.${type.replace(".", "_")}`)}
                />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Switch
            label={t("integrations.enabled")}
            checked={form.enabled}
            onChange={(event) => setForm({ ...form, enabled: event.currentTarget.checked })}
          />
          <FormDialogActions onCancel={onClose} busy={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The events a webhook may choose: store upload events only once the organization has a
 * developer account (or when the webhook already has them).
 */
function useOfferedEvents(orgId: number, editing: Webhook | null): readonly WebhookEventType[] {
  const apple = useQuery({
    queryKey: storeKeys.accounts(orgId, "app_store"),
    queryFn: () => listDeveloperAccounts(orgId, "app_store"),
  });
  const google = useQuery({
    queryKey: storeKeys.accounts(orgId, "google_play"),
    queryFn: () => listDeveloperAccounts(orgId, "google_play"),
  });
  const hasAccount = Boolean(apple.data?.length || google.data?.length);
  return webhookEventTypes.filter(
    (type) => !type.startsWith("store_upload.") || hasAccount || editing?.events.includes(type),
  );
}
