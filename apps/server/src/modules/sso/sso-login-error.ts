/** Why a sign-in did not finish; the sign-in page shows the matching message (`?sso_error=`). */
export type SsoFailure =
  | "unknown_organization"
  | "expired"
  | "provider"
  | "no_email"
  | "domain"
  /** The account exists and the organization does not own it: its password signs it in. */
  | "not_owned"
  /** The organization proved the account's domain: a link to link the account was mailed. */
  | "link_sent"
  /** The account is not activated yet; single sign-on never activates one. */
  | "inactive"
  | "user_limit"
  /** Linking: the provider named someone other than the signed-in person. */
  | "link_mismatch"
  /** Too many sign-ins started or answered from this address in the last minute. */
  | "throttled";

export class SsoLoginError extends Error {
  constructor(readonly reason: SsoFailure) {
    super(reason);
  }
}
