// The upload-progress widget of spec §2: progress, file name, status and error. It asks its
// owner to open the add-app modal again or to cancel; it changes nothing itself.
import { Button, Group, Paper, Progress, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

const FLOATING_STYLE = {
  position: "fixed",
  right: "var(--mantine-spacing-md)",
  bottom: "var(--mantine-spacing-md)",
  width: "min(340px, calc(100vw - 2 * var(--mantine-spacing-md)))",
  zIndex: 900,
} as const;

export interface UploadProgressProps {
  /** 0–100. */
  progress: number;
  fileName: string;
  /** Already translated status text. */
  status: string;
  /** Already translated error text. */
  error?: string | null;
  onOpenAdd?: () => void;
  onCancel?: () => void;
  /** Floating in a page corner rather than inside the modal. */
  floating?: boolean;
}

export function UploadProgress({
  progress,
  fileName,
  status,
  error,
  onOpenAdd,
  onCancel,
  floating = false,
}: UploadProgressProps) {
  const { t } = useTranslation();
  return (
    <Paper
      withBorder={floating}
      shadow={floating ? "md" : undefined}
      p={floating ? "md" : 0}
      radius="md"
      style={floating ? FLOATING_STYLE : undefined}
      role="group"
      aria-label={t("upload.progress_label")}
    >
      <Stack gap={6}>
        {fileName ? (
          <Text fz="sm" fw={600} truncate title={fileName}>
            {fileName}
          </Text>
        ) : null}
        <Progress
          value={progress}
          aria-label={t("upload.progress_label")}
          color={error ? "red" : undefined}
          animated={!error && progress > 0 && progress < 100}
        />
        <Text fz="sm" c="dimmed" aria-live="polite">
          {status}
        </Text>
        {error ? (
          <Text fz="sm" c="red" role="alert">
            {error}
          </Text>
        ) : null}
        {onOpenAdd || onCancel ? (
          <Group gap="xs" justify="flex-end">
            {onCancel ? (
              <Button size="xs" variant="default" onClick={onCancel}>
                {t("upload.cancel_upload")}
              </Button>
            ) : null}
            {onOpenAdd ? (
              <Button size="xs" onClick={onOpenAdd}>
                {t("upload.show")}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
