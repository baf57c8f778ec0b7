import { insertUser } from "../../src/modules/users/users.repo.ts";
import type { TestApp } from "./test-app.ts";

let sequence = 0;

/** An active user with a live session token; the e-mail is unique per call unless given. */
export async function createUserWithToken(testApp: TestApp, options: { email?: string } = {}) {
  sequence += 1;
  const email = options.email ?? `user${sequence}-${process.pid}@example.test`;
  const user = await insertUser(testApp.database.db, {
    email,
    isActive: true,
    firstName: "Test",
    lastName: `User ${sequence}`,
  });
  const session = await testApp.services.tokens.issueSession(user.id);
  return { user, token: session.token, tokenId: session.tokenId };
}

export function authHeader(token: string): Record<string, string> {
  return { authorization: `Token ${token}` };
}

let addressSequence = 0;

/** A client address of its own for each call: per-address throttles then see separate people. */
export function distinctAddress(): string {
  addressSequence += 1;
  return `10.${(addressSequence >> 16) & 255}.${(addressSequence >> 8) & 255}.${addressSequence & 255}`;
}
