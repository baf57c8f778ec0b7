import { Button, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** The foot of a form in a dialog: Cancel closes it, the submit button saves (busy while saving). */
export function FormDialogActions({
  onCancel,
  busy,
  submitLabel,
}: {
  onCancel: () => void;
  busy: boolean;
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        {t("common.cancel")}
      </Button>
      <Button type="submit" loading={busy}>
        {submitLabel ?? t("common.save")}
      </Button>
    </Group>
  );
}
