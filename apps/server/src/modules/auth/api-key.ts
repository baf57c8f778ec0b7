import { generateToken, hashToken } from "../../platform/crypto/tokens.ts";
import type { Database } from "../../platform/db/client.ts";
import { insertToken } from "./auth-token.repo.ts";

/** A new API key for CI use: returned once, stored only as its hash, no expiry. */
export async function issueApiKey(db: Database, userId: number): Promise<string> {
  const token = generateToken();
  await insertToken(db, { userId, tokenHash: hashToken(token), kind: "api_key", expiresAt: null });
  return token;
}
