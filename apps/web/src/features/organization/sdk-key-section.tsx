import { Button, Code, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { organizationKeys, rotateSdkKey } from "../../api/organizations.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { useCopyWithAlert } from "../../ui/use-copy-with-alert.ts";

/** The organization's SDK key, which in-app SDKs send with the app key; copy it or make a new one. */
export function SdkKeySection({ orgId, sdkKey }: { orgId: number; sdkKey: string }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const copy = useCopyWithAlert();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation({
    mutationFn: () => rotateSdkKey(orgId),
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationKeys.detail(orgId), organization);
      alerts.show({ type: "success", message: t("sdk_key.rotated") });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
    onSettled: () => setConfirming(false),
  });
  return (
    <Stack gap="sm" maw={560}>
      <Text fz="sm" c="dimmed">
        {t("sdk_key.description")}
      </Text>
      <Group gap="sm" wrap="nowrap">
        <Code data-testid="sdk-key" style={{ overflowWrap: "anywhere" }}>
          {sdkKey}
        </Code>
        <Button variant="light" size="xs" onClick={() => void copy(sdkKey)} aria-label={t("sdk_key.copy")}>
          {t("sdk_key.copy_short")}
        </Button>
      </Group>
      <Button
        variant="default"
        size="xs"
        style={{ alignSelf: "flex-start" }}
        onClick={() => setConfirming(true)}
      >
        {t("sdk_key.rotate")}
      </Button>
      <ConfirmDialog
        opened={confirming}
        title={t("sdk_key.rotate")}
        message={t("sdk_key.rotate_confirm")}
        confirmLabel={t("sdk_key.rotate")}
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
