import { Alert as MantineAlert } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

export type AlertType = "success" | "info" | "warning" | "error";

/** Alerts close themselves after 3 s unless told otherwise (spec §9). */
export const DEFAULT_ALERT_TIMEOUT = 3000;

const ALERT_COLORS: Record<AlertType, string> = {
  success: "green",
  info: "blue",
  warning: "yellow",
  error: "red",
};

export interface AlertProps {
  type?: AlertType;
  message: string;
  dismissible?: boolean;
  /** Milliseconds until the alert closes itself; 0 keeps it until dismissed. */
  timeout?: number;
  onClose?: () => void;
}

export function Alert({
  type = "warning",
  message,
  dismissible = true,
  timeout = DEFAULT_ALERT_TIMEOUT,
  onClose,
}: AlertProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  // The latest callback is read through a ref so a parent re-render does not restart the timer.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (timeout <= 0) return;
    const timer = setTimeout(() => {
      setVisible(false);
      onCloseRef.current?.();
    }, timeout);
    return () => clearTimeout(timer);
  }, [timeout]);

  if (!visible) return null;

  const close = () => {
    setVisible(false);
    onCloseRef.current?.();
  };

  return (
    <MantineAlert
      color={ALERT_COLORS[type]}
      variant="light"
      data-alert-type={type}
      withCloseButton={dismissible}
      closeButtonLabel={t("alert.close")}
      onClose={close}
    >
      {message}
    </MantineAlert>
  );
}
