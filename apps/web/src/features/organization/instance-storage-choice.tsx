import { Button, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { storageKeys, switchToInstanceStorage } from "../../api/storage.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";

/** Back to the instance's storage for new files; what is in the bucket stays readable there. */
export function InstanceStorageChoice({ orgId, active }: { orgId: number; active: boolean }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const switchBack = useMutation({
    mutationFn: () => switchToInstanceStorage(orgId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: storageKeys.all(orgId) });
      alerts.show({ type: "success", message: t("storage.using_instance") });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
    onSettled: () => setConfirming(false),
  });
  return (
    <Stack gap="sm" maw={560}>
      <Text fz="sm">{t("storage.instance_text")}</Text>
      {active ? null : (
        <Button variant="default" style={{ alignSelf: "flex-start" }} onClick={() => setConfirming(true)}>
          {t("storage.use_instance")}
        </Button>
      )}
      <ConfirmDialog
        opened={confirming}
        title={t("storage.use_instance")}
        message={t("storage.use_instance_confirm")}
        confirmLabel={t("storage.use_instance")}
        danger={false}
        busy={switchBack.isPending}
        onConfirm={() => switchBack.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
