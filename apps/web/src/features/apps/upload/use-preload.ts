// One build file on its way to the server's preload step: progress sampled every 100 ms (spec
// §9), the phase the status text follows, and abort.
import { useCallback, useEffect, useRef, useState } from "react";
import { type PreloadFields, type PreloadResult, preloadBuild } from "../../../api/applications.ts";
import type { UploadHandle } from "../../../api/upload.ts";
import { describeUploadFailure, type UploadMessage } from "./upload-rules.ts";

export const PROGRESS_INTERVAL_MS = 100;
export const CANCEL_RESET_MS = 100;

/** idle -> uploading -> reading (100% sent, server reading) -> done | failed. */
export type PreloadPhase = "idle" | "uploading" | "reading" | "done" | "failed";

export interface PreloadState {
  phase: PreloadPhase;
  progress: number;
  fileName: string;
  error: UploadMessage | null;
  result: PreloadResult | null;
  /** The connection dropped: the upload resumes by itself once it is back. */
  reconnecting: boolean;
}

export const IDLE_PRELOAD: PreloadState = {
  phase: "idle",
  progress: 0,
  fileName: "",
  error: null,
  result: null,
  reconnecting: false,
};

export interface Preload extends PreloadState {
  start: (fields: PreloadFields) => void;
  /** Shows a problem found before anything was sent (progress stays at 0). */
  fail: (error: UploadMessage, fileName?: string) => void;
  /** Aborts the request and resets shortly after, so the abort settles first. */
  cancel: () => void;
  reset: () => void;
}

export function isSending(phase: PreloadPhase): boolean {
  return phase === "uploading" || phase === "reading";
}

export function usePreload(onDone?: (result: PreloadResult) => void): Preload {
  const [state, setState] = useState<PreloadState>(IDLE_PRELOAD);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;
  const handle = useRef<UploadHandle<PreloadResult> | null>(null);
  const latest = useRef(0);
  const ticker = useRef<ReturnType<typeof setInterval> | null>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Each start gets a number so a late answer of an aborted upload cannot touch a newer one.
  const attempt = useRef(0);

  const stopTicker = useCallback(() => {
    if (ticker.current) clearInterval(ticker.current);
    ticker.current = null;
  }, []);

  const stopAll = useCallback(() => {
    attempt.current += 1;
    stopTicker();
    if (resetTimer.current) clearTimeout(resetTimer.current);
    resetTimer.current = null;
    const running = handle.current;
    handle.current = null;
    running?.abort();
  }, [stopTicker]);

  const reset = useCallback(() => {
    stopAll();
    setState(IDLE_PRELOAD);
  }, [stopAll]);

  const start = useCallback(
    (fields: PreloadFields) => {
      stopAll();
      const mine = attempt.current;
      latest.current = 0;
      setState({ ...IDLE_PRELOAD, phase: "uploading", fileName: fields.file.name });
      const upload = preloadBuild(fields, {
        onProgress: (percent) => {
          latest.current = percent;
        },
        onConnectionLost: (reconnecting) => {
          if (mine !== attempt.current) return;
          setState((current) => (isSending(current.phase) ? { ...current, reconnecting } : current));
        },
      });
      handle.current = upload;
      ticker.current = setInterval(() => {
        const progress = latest.current;
        setState((current) =>
          current.phase === "uploading" || current.phase === "reading"
            ? { ...current, progress, phase: progress >= 100 ? "reading" : "uploading" }
            : current,
        );
      }, PROGRESS_INTERVAL_MS);
      upload.promise.then(
        ({ body }) => {
          if (mine !== attempt.current) return;
          stopTicker();
          handle.current = null;
          setState((current) => ({
            ...current,
            phase: "done",
            progress: 100,
            result: body,
            error: null,
            reconnecting: false,
          }));
          onDoneRef.current?.(body);
        },
        (error: unknown) => {
          if (mine !== attempt.current) return;
          stopTicker();
          handle.current = null;
          const message = describeUploadFailure(error);
          setState((current) =>
            message
              ? { ...current, phase: "failed", progress: 0, error: message, reconnecting: false }
              : IDLE_PRELOAD,
          );
        },
      );
    },
    [stopAll, stopTicker],
  );

  const fail = useCallback(
    (error: UploadMessage, fileName = "") => {
      stopAll();
      setState({ ...IDLE_PRELOAD, phase: "failed", fileName, error });
    },
    [stopAll],
  );

  const cancel = useCallback(() => {
    stopAll();
    resetTimer.current = setTimeout(() => {
      resetTimer.current = null;
      setState(IDLE_PRELOAD);
    }, CANCEL_RESET_MS);
  }, [stopAll]);

  useEffect(() => stopAll, [stopAll]);

  return { ...state, start, fail, cancel, reset };
}
