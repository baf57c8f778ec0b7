// A confirm answered 202 goes on in the background; its task is asked about every 5 s (spec §9).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type ApplicationRecord, fetchUploadTask } from "../../../api/applications.ts";
import { describeUploadFailure, messageOfCode, type UploadMessage } from "./upload-rules.ts";

export const TASK_POLL_MS = 5000;

interface PollingHandlers {
  onSuccess: (record: ApplicationRecord) => void;
  onFailure: (message: UploadMessage) => void;
}

export function useTaskPolling(handlers: PollingHandlers) {
  const [taskId, setTaskId] = useState<string | null>(null);
  // The latest handlers are read at answer time, so a re-render does not restart the timer.
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!taskId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const ask = () => {
      timer = setTimeout(async () => {
        try {
          const task = await fetchUploadTask(taskId);
          if (stopped) return;
          if (task.state === "SUCCESS" && task.result) {
            setTaskId(null);
            latest.current.onSuccess(task.result);
          } else if (task.state === "FAILURE") {
            setTaskId(null);
            latest.current.onFailure(messageOfCode(task.error_code));
          } else {
            ask();
          }
        } catch (error) {
          if (stopped) return;
          setTaskId(null);
          const message = describeUploadFailure(error);
          if (message) latest.current.onFailure(message);
        }
      }, TASK_POLL_MS);
    };
    ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [taskId]);

  const start = useCallback((id: string) => setTaskId(id), []);
  const stop = useCallback(() => setTaskId(null), []);
  return useMemo(() => ({ active: taskId !== null, start, stop }), [taskId, start, stop]);
}
