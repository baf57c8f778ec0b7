// Drop a build here or choose one; every file reaches `onFiles` so the owner can refuse a
// multi-file drop with the spec's message.
import { Button, Paper, Stack, Text } from "@mantine/core";
import { acceptedExtensionList } from "@tarmac/inspector/rules";
import { type DragEvent, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

interface DropZoneProps {
  disabled?: boolean;
  onFiles: (files: File[]) => void;
}

export function DropZone({ disabled = false, onFiles }: DropZoneProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [over, setOver] = useState(false);

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    if (!disabled) setOver(true);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) onFiles(Array.from(event.dataTransfer?.files ?? []));
  };

  return (
    <Paper
      withBorder
      radius="md"
      p="lg"
      data-testid="drop-zone"
      data-over={over || undefined}
      bg={over ? "blue.0" : undefined}
      style={{ borderStyle: "dashed", opacity: disabled ? 0.6 : 1 }}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <Stack align="center" gap="xs">
        <Text fw={600}>{t("upload.drop_here")}</Text>
        <Button
          variant="light"
          disabled={disabled}
          onClick={() => input.current?.click()}
          aria-describedby={hintId}
        >
          {t("upload.choose_file")}
        </Button>
        <Text id={hintId} fz="xs" c="dimmed" ta="center">
          {t("upload.accepted", { types: acceptedExtensionList() })}
        </Text>
        <input
          ref={input}
          type="file"
          hidden
          aria-label={t("upload.file_label")}
          disabled={disabled}
          onChange={(event) => {
            const files = Array.from(event.currentTarget.files ?? []);
            // Clearing lets the same file be chosen again after a failure.
            event.currentTarget.value = "";
            onFiles(files);
          }}
        />
      </Stack>
    </Paper>
  );
}
