import { Stack } from "@mantine/core";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from "react";
import { Alert, type AlertType } from "./alert.tsx";

export interface AlertRequest {
  type?: AlertType;
  /** Already translated text. */
  message: string;
  timeout?: number;
}

interface AlertEntry extends AlertRequest {
  id: number;
}

interface AlertsApi {
  show: (request: AlertRequest) => void;
}

const AlertsContext = createContext<AlertsApi | null>(null);

export function AlertsProvider({ children }: { children: ReactNode }) {
  const [entries, setEntries] = useState<AlertEntry[]>([]);
  const nextId = useRef(1);

  const show = useCallback((request: AlertRequest) => {
    const id = nextId.current++;
    setEntries((current) => [...current, { ...request, id }]);
  }, []);

  const remove = useCallback((id: number) => {
    setEntries((current) => current.filter((entry) => entry.id !== id));
  }, []);

  const api = useMemo(() => ({ show }), [show]);

  return (
    <AlertsContext.Provider value={api}>
      {children}
      <Stack className="alert-stack" gap="xs" aria-live="polite">
        {entries.map((entry) => (
          <Alert
            key={entry.id}
            type={entry.type}
            message={entry.message}
            timeout={entry.timeout}
            onClose={() => remove(entry.id)}
          />
        ))}
      </Stack>
    </AlertsContext.Provider>
  );
}

export function useAlerts(): AlertsApi {
  const context = useContext(AlertsContext);
  if (!context) throw new Error("useAlerts must be used inside <AlertsProvider>");
  return context;
}
