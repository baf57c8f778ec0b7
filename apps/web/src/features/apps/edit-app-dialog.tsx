import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { type ApplicationRecord, applicationKeys, updateApplication } from "../../api/applications.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";

const FIELDS = ["project_title", "title", "environment", "description"] as const;

export function EditAppButton({ app }: { app: ApplicationRecord }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [form, setForm] = useState({ project_title: "", title: "", environment: "", description: "" });
  const errors = useFormErrors(FIELDS);
  const save = useMutation({
    mutationFn: () =>
      updateApplication(app.id, {
        project_title: form.project_title.trim(),
        title: form.title.trim(),
        environment: form.environment.trim(),
        description: form.description.trim(),
      }),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("apps.saved") });
      void queryClient.invalidateQueries({ queryKey: applicationKeys.all() });
      setOpened(false);
    },
    onError: errors.showError,
  });
  const openDialog = () => {
    setForm({
      project_title: app.project_title,
      title: app.title,
      environment: app.environment,
      description: app.description,
    });
    errors.reset();
    setOpened(true);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!save.isPending) save.mutate();
  };
  const field = (name: keyof typeof form) => ({
    value: form[name],
    error: errors.errors.fields[name],
    disabled: save.isPending,
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setForm((current) => ({ ...current, [name]: value }));
    },
  });
  return (
    <>
      <Button variant="default" onClick={openDialog}>
        {t("apps.edit")}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t("apps.edit_title")}
        closeButtonProps={{ "aria-label": t("alert.close") }}
      >
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {errors.errors.general ? (
              <Text c="red" fz="sm" role="alert">
                {errors.errors.general}
              </Text>
            ) : null}
            <TextInput
              label={t("upload.project_title")}
              required
              maxLength={100}
              {...field("project_title")}
            />
            <TextInput label={t("upload.app_title")} required maxLength={100} {...field("title")} />
            <TextInput label={t("apps.environment")} required maxLength={50} {...field("environment")} />
            <Textarea label={t("upload.description")} rows={2} maxLength={5000} {...field("description")} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setOpened(false)}>
                {t("common.cancel")}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t("common.save")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
