import { Modal, Stack, Textarea } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { applicationKeys, updateVersion, type Version } from "../../api/applications.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { describeError } from "../../ui/error-text.ts";
import { FormDialogActions } from "../../ui/forms/form-dialog-actions.tsx";

/** Edits a version's release notes (whats_new). */
export function ReleaseNotesDialog({ version, onClose }: { version: Version | null; onClose: () => void }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  useEffect(() => {
    if (version) setText(version.whats_new);
  }, [version]);
  const save = useMutation({
    mutationFn: (input: { id: number; whats_new: string }) =>
      updateVersion(input.id, { whats_new: input.whats_new }),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("apps.notes_saved") });
      void queryClient.invalidateQueries({ queryKey: applicationKeys.all() });
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (version && !save.isPending) save.mutate({ id: version.id, whats_new: text.trim() });
  };
  return (
    <Modal
      opened={version !== null}
      onClose={onClose}
      title={t("apps.edit_notes_title", { version: version?.version ?? "" })}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Textarea
            label={t("apps.whats_new")}
            value={text}
            rows={4}
            maxLength={5000}
            onChange={(event) => setText(event.currentTarget.value)}
            data-autofocus
          />
          <FormDialogActions onCancel={onClose} busy={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
