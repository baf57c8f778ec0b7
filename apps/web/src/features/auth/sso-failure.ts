// Why the last single sign-on did not finish: the server sends the browser back with
// `?sso_error=<reason>`, and the page shows the matching message. Only known reasons are shown.
import type { AlertType } from "../../ui/alert.tsx";

const SSO_FAILURES: Record<string, AlertType> = {
  unknown_organization: "error",
  expired: "error",
  provider: "error",
  no_email: "error",
  domain: "error",
  not_owned: "error",
  inactive: "error",
  user_limit: "error",
  link_mismatch: "error",
  throttled: "error",
  // Nothing went wrong: a link to link the account is on its way to the person's mailbox.
  link_sent: "info",
};

export function readSsoFailure(reason: string | null): { type: AlertType; key: string } | null {
  const type = reason ? SSO_FAILURES[reason] : undefined;
  return type ? { type, key: `custom_login.errors.${reason}` } : null;
}
