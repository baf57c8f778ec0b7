import { AppError } from "../../http/errors.ts";
import { privateAddressMessage } from "../../platform/net/network-errors.ts";
import { OutboundTargetError, resolvePublicAddress } from "../../platform/net/outbound-target.ts";

/**
 * Checks a user-given endpoint URL before it is saved: http(s), no credentials in it, and a host
 * that is public (unless the instance allows private targets). Each attempt checks the address
 * again when it connects, so a later DNS change cannot point it inward either.
 */
export async function assertEndpointUrl(
  url: string,
  field: string,
  allowPrivateTargets: boolean,
): Promise<void> {
  const refuse = (message: string) => AppError.validation({ [field]: [message] });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse("Enter a valid URL.");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw refuse("Enter an http:// or https:// URL.");
  if (parsed.username || parsed.password) throw refuse("The URL must not contain a user name or password.");
  try {
    await resolvePublicAddress(parsed.hostname, allowPrivateTargets);
  } catch (error) {
    if (error instanceof OutboundTargetError) throw refuse(privateAddressMessage);
    throw refuse("This host name does not resolve.");
  }
}
