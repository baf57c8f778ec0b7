import { Button, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { logoutEverywhere } from "../../api/auth.ts";
import { Alert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";

/** Ends every session on every device, this one included, and revokes the API keys. */
export function SignOutEverywhereSection() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const signOut = useMutation({
    mutationFn: logoutEverywhere,
    onSuccess: () => {
      queryClient.clear();
      navigate("/login", { replace: true });
    },
    onSettled: () => setConfirming(false),
  });

  return (
    <Stack gap="sm" maw={520}>
      <Text fz="sm" c="dimmed">
        {t("sessions.description")}
      </Text>
      {signOut.isError ? <Alert type="error" message={describeError(signOut.error, t)} timeout={0} /> : null}
      <Button
        variant="light"
        color="red"
        style={{ alignSelf: "flex-start" }}
        onClick={() => setConfirming(true)}
      >
        {t("sessions.sign_out_everywhere")}
      </Button>
      <ConfirmDialog
        opened={confirming}
        title={t("sessions.confirm_title")}
        message={t("sessions.confirm_message")}
        confirmLabel={t("sessions.sign_out_everywhere")}
        busy={signOut.isPending}
        onConfirm={() => signOut.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
