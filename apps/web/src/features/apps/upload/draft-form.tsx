// The fields of a finished preload (spec §4, reply 200), with its two warnings.
import { Alert, Checkbox, Group, Stack, Switch, Textarea, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { PreloadResult } from "../../../api/applications.ts";
import type { AppDraft } from "./draft.ts";

interface DraftFormProps {
  draft: AppDraft;
  result: PreloadResult;
  existingApp: boolean;
  /** The app joins an existing project, whose title it keeps. */
  projectLocked?: boolean;
  disabled: boolean;
  onChange: (patch: Partial<AppDraft>) => void;
}

export function DraftForm({
  draft,
  result,
  existingApp,
  projectLocked = false,
  disabled,
  onChange,
}: DraftFormProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {result.version_exist ? (
        <Alert color="red" variant="light">
          {t("upload.version_exists_warning", {
            version: result.version,
            build: result.build_version_number,
          })}
        </Alert>
      ) : null}
      {result.unique_app_id_changed ? (
        <Alert color="orange" variant="light">
          <Stack gap="xs">
            {t("upload.bundle_changed_warning", { bundle: result.unique_app_id_new ?? "" })}
            <Checkbox
              label={t("upload.bundle_changed_confirm")}
              checked={draft.unique_app_id_changed}
              disabled={disabled}
              onChange={(event) => onChange({ unique_app_id_changed: event.currentTarget.checked })}
            />
          </Stack>
        </Alert>
      ) : null}
      <TextInput
        label={t("upload.project_title")}
        value={draft.project_title}
        required={!existingApp}
        readOnly={existingApp || projectLocked}
        disabled={disabled}
        maxLength={100}
        onChange={(event) => onChange({ project_title: event.currentTarget.value })}
      />
      <TextInput
        label={t("upload.app_title")}
        value={draft.title}
        readOnly={existingApp}
        disabled={disabled}
        maxLength={100}
        onChange={(event) => onChange({ title: event.currentTarget.value })}
      />
      <Group grow align="flex-start">
        <TextInput
          label={t("apps.version")}
          value={draft.new_version}
          disabled={disabled}
          maxLength={100}
          onChange={(event) => onChange({ new_version: event.currentTarget.value })}
        />
        <TextInput
          label={t("apps.build")}
          value={draft.build_version_number}
          disabled={disabled}
          maxLength={100}
          onChange={(event) => onChange({ build_version_number: event.currentTarget.value })}
        />
      </Group>
      <TextInput
        label={t("apps.environment")}
        value={draft.environment}
        readOnly={existingApp}
        disabled={disabled}
        maxLength={50}
        onChange={(event) => onChange({ environment: event.currentTarget.value })}
      />
      <Textarea
        label={t("upload.description")}
        value={draft.description}
        disabled={disabled}
        rows={2}
        maxLength={5000}
        onChange={(event) => onChange({ description: event.currentTarget.value })}
      />
      <Textarea
        label={t("apps.whats_new")}
        value={draft.whats_new}
        disabled={disabled}
        rows={2}
        maxLength={5000}
        onChange={(event) => onChange({ whats_new: event.currentTarget.value })}
      />
      <Switch
        label={t("apps.ready_to_sale")}
        checked={draft.ready_to_sale}
        disabled={disabled}
        onChange={(event) => onChange({ ready_to_sale: event.currentTarget.checked })}
      />
    </Stack>
  );
}
