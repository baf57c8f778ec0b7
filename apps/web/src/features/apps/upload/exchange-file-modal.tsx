// Replace the file of an existing version (spec §2/§4): preload with the app, then exchange with a
// required comment. Nothing can be sent while the file uploads or the exchange is saving.
import { Button, Group, Modal, Stack, Textarea } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type ApplicationRecord,
  applicationKeys,
  exchangeVersionFile,
  type Version,
} from "../../../api/applications.ts";
import { fetchUsage, planKeys } from "../../../api/plans.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { limitWayOut } from "../../../ui/limit-way-out.ts";
import { UploadProgress } from "../../../ui/upload-progress.tsx";
import { DropZone } from "./drop-zone.tsx";
import { messageText, statusText } from "./status-text.ts";
import { checkFiles, describeUploadFailure } from "./upload-rules.ts";
import { isSending, usePreload } from "./use-preload.ts";

interface ExchangeFileModalProps {
  app: ApplicationRecord;
  /** The version whose file is replaced; null keeps the modal closed. */
  version: Version | null;
  onClose: () => void;
}

export function ExchangeFileModal({ app, version, onClose }: ExchangeFileModalProps) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const preload = usePreload();
  const [comment, setComment] = useState("");
  const [commentError, setCommentError] = useState(false);
  const usage = useQuery({
    queryKey: planKeys.usage(app.organization),
    queryFn: () => fetchUsage(app.organization),
    enabled: version !== null,
  });

  const exchange = useMutation({
    mutationFn: (input: { versionId: number; preloadPath: string; comment: string }) =>
      exchangeVersionFile(input.versionId, { preload_path: input.preloadPath, comment: input.comment }),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("FILE UPLOADED SUCCESSFULLY") });
      void queryClient.invalidateQueries({ queryKey: applicationKeys.all() });
      close();
    },
  });
  const sending = isSending(preload.phase);
  const busy = sending || exchange.isPending;

  function close() {
    preload.reset();
    exchange.reset();
    setComment("");
    setCommentError(false);
    onClose();
  }

  const pickFiles = (files: File[]) => {
    if (busy || files.length === 0) return;
    exchange.reset();
    const problem = checkFiles(files, {
      organization: app.organization,
      appTypeHint: app.app_type,
      usage: usage.data ?? null,
    });
    const file = files[0];
    if (problem || !file) {
      preload.fail(problem ?? { key: "errors.application" }, files.length === 1 ? file?.name : "");
      return;
    }
    preload.start({ file, organization: app.organization, app: app.id, appType: app.app_type });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const preloadPath = preload.result?.preload_path;
    if (busy || !version || !preloadPath) return;
    const trimmed = comment.trim();
    setCommentError(trimmed === "");
    if (trimmed === "") return;
    exchange.mutate({ versionId: version.id, preloadPath, comment: trimmed });
  };

  const failure = exchange.error ? describeUploadFailure(exchange.error) : null;
  const error = messageText(failure ?? preload.error, t, limitWayOut(usage.data, t));

  return (
    <Modal
      opened={version !== null}
      onClose={close}
      title={t("exchange.title", { version: version?.version ?? "" })}
      size="lg"
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {preload.phase === "done" ? null : <DropZone disabled={busy} onFiles={pickFiles} />}
          {preload.phase !== "idle" || error ? (
            <UploadProgress
              progress={preload.progress}
              fileName={preload.fileName}
              status={statusText(preload, t)}
              error={error}
            />
          ) : null}
          <Textarea
            label={t("exchange.comment")}
            required
            value={comment}
            disabled={exchange.isPending}
            rows={2}
            maxLength={5000}
            error={commentError ? t("exchange.comment_required") : undefined}
            onChange={(event) => setComment(event.currentTarget.value)}
          />
          <Group justify="flex-end" gap="sm">
            {sending ? (
              <Button variant="default" onClick={preload.cancel}>
                {t("upload.cancel_upload")}
              </Button>
            ) : (
              <Button variant="default" onClick={close} disabled={exchange.isPending}>
                {t("common.cancel")}
              </Button>
            )}
            <Button type="submit" loading={exchange.isPending} disabled={busy || !preload.result}>
              {t("exchange.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
