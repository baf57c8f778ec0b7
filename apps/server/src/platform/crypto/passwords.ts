import { type Algorithm, hash, verify } from "@node-rs/argon2";

// The package exports Algorithm as a const enum, which isolated modules cannot read; 2 is Argon2id.
const argon2id = 2 as Algorithm;

/** OWASP's argon2id baseline (19 MiB, 2 passes): costly to guess offline, ~20 ms per login here. */
const options = { algorithm: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** A fixed hash to verify against when no user matches, so unknown e-mails take as long as known ones. */
let decoyHash: Promise<string> | null = null;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    decoyHash ??= hash("decoy password that matches nothing", options);
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
