import { Button, Checkbox, Group, Modal, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { type ApplicationRecord, applicationKeys, deleteApplication } from "../../api/applications.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { describeError } from "../../ui/error-text.ts";

/** Deletes this platform's app, or with the box ticked every platform of the project. */
export function DeleteAppButton({ app }: { app: ApplicationRecord }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { refreshProfile } = useDashboard();
  const [opened, setOpened] = useState(false);
  const [allPlatforms, setAllPlatforms] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteApplication(app.id, allPlatforms),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("apps.deleted") });
      queryClient.removeQueries({ queryKey: applicationKeys.detail(app.id) });
      void queryClient.invalidateQueries({ queryKey: applicationKeys.all() });
      void refreshProfile();
      navigate("/dashboard/apps");
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const close = () => {
    if (remove.isPending) return;
    setOpened(false);
    setAllPlatforms(false);
  };
  return (
    <>
      <Button color="red" variant="light" onClick={() => setOpened(true)}>
        {t("apps.delete")}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={t("apps.delete_title", { title: app.project_title || app.title })}
        closeButtonProps={{ "aria-label": t("alert.close") }}
      >
        <Stack gap="md">
          <Text>{t("apps.delete_confirm")}</Text>
          {app.other_platform.length > 0 ? (
            <Checkbox
              label={t("apps.delete_all_platforms")}
              checked={allPlatforms}
              onChange={(event) => setAllPlatforms(event.currentTarget.checked)}
            />
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t("common.cancel")}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t("apps.delete")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
