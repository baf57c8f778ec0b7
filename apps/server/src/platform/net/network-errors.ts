import { OutboundTargetError } from "./outbound-target.ts";

/** What every setting pointing at a private address answers (see http/errors.ts for administrators). */
export const privateAddressMessage = "This address is not a public one.";

/** Said to instance administrators after privateAddressMessage: the way to allow it where it is meant. */
export const privateAddressHint =
  "To let organizations use private addresses (an on-premises install), set ALLOW_PRIVATE_NETWORK_TARGETS=true.";

const certificateCodes =
  /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_)/;

/** The error and its causes, outermost first (libraries wrap what fetch or a socket threw). */
function chainOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let link = error; link !== undefined && link !== null && chain.length < 8; ) {
    chain.push(link);
    link = link instanceof Error ? link.cause : undefined;
  }
  return chain;
}

/**
 * A failed connection in words a person acts on ("the connection was refused", "its TLS
 * certificate is not trusted", "it did not answer in time"), or null when the error is not one.
 */
export function describeNetworkFailure(error: unknown): string | null {
  for (const link of chainOf(error)) {
    if (link instanceof OutboundTargetError) return privateAddressMessage;
    const { code, name, message } = (link ?? {}) as { code?: unknown; name?: string; message?: string };
    const text = typeof code === "string" ? code : "";
    if (text === "EADDRNOTPUBLIC") return privateAddressMessage;
    if (text === "ECONNREFUSED")
      return "The connection was refused: nothing listens at this address and port.";
    if (text === "ENOTFOUND" || text === "EAI_AGAIN") return "This host name does not resolve.";
    if (text === "ECONNRESET" || text === "EPIPE") return "The connection was closed before an answer came.";
    if (
      text === "ETIMEDOUT" ||
      name === "TimeoutError" ||
      name === "AbortError" ||
      text === "UND_ERR_CONNECT_TIMEOUT"
    ) {
      return "It did not answer in time.";
    }
    if (certificateCodes.test(text)) {
      return `Its TLS certificate is not trusted (${message?.split("\n")[0] ?? text}).`;
    }
  }
  return null;
}
