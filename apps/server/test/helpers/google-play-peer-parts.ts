import type { KeyObject } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeJwt, jwtVerify } from "jose";

/** Google's refusals and the token endpoint's checks, for the Google Play fake. */
export type Json = Record<string, unknown>;

export class GoogleError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly oauth = false,
  ) {
    super(message);
  }
}

export const googleTokenAudience = "https://oauth2.googleapis.com/token";

/**
 * The OAuth token endpoint's checks of a service account's assertion: the JWT bearer grant, a
 * known and enabled account, RS256 against its public half, the audience, at most an hour of
 * life, the androidpublisher scope. Answers the account's e-mail.
 */
export async function verifyAssertion(
  formText: string,
  accounts: Map<string, { publicKey: KeyObject; disabled: boolean }>,
): Promise<string> {
  const form = new URLSearchParams(formText);
  if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
    throw new GoogleError(400, "Invalid grant_type", true);
  }
  const assertion = form.get("assertion") ?? "";
  let claims: { iss?: string };
  try {
    claims = decodeJwt(assertion);
  } catch {
    throw new GoogleError(400, "Invalid JWT.", true);
  }
  const account = accounts.get(claims.iss ?? "");
  if (!account) throw new GoogleError(400, "Invalid grant: account not found", true);
  if (account.disabled) throw new GoogleError(400, "Invalid grant: account disabled", true);
  try {
    const { payload } = await jwtVerify(assertion, account.publicKey, {
      algorithms: ["RS256"],
      audience: googleTokenAudience,
    });
    if (!payload.exp || !payload.iat || payload.exp - payload.iat > 3600)
      throw new Error("lifetime over an hour");
    if (
      !String(payload.scope ?? "")
        .split(" ")
        .includes("https://www.googleapis.com/auth/androidpublisher")
    ) {
      throw new Error("scope androidpublisher missing");
    }
  } catch (error) {
    throw new GoogleError(400, `Invalid JWT Signature or claims: ${(error as Error).message}`, true);
  }
  return claims.iss as string;
}

export async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function readJson(request: IncomingMessage): Promise<Json | null> {
  const text = await readText(request);
  return text ? (JSON.parse(text) as Json) : null;
}

export async function drain(request: IncomingMessage): Promise<void> {
  for await (const _ of request) {
    // Read to the end so the connection stays usable.
  }
}

export function send(response: ServerResponse, status: number, body: Json): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
