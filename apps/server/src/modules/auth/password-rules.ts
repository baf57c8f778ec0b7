import { readFileSync } from "node:fs";
import { serverPath } from "../../platform/server-root.ts";

/**
 * The bundled list: the 10,000 most common passwords of the MIT-licensed zxcvbn frequency list
 * (ranked, lower-cased), plus every longer entry of it, since only those can pass the length rule.
 */
let commonPasswords: Set<string> | null = null;

function loadCommonPasswords(): Set<string> {
  commonPasswords ??= new Set(
    readFileSync(serverPath("src/modules/auth/common-passwords.txt"), "utf8").split("\n").filter(Boolean),
  );
  return commonPasswords;
}

export const minimumPasswordLength = 10;

/** Every rule the password breaks, as messages for the `password` field (empty = acceptable). */
export function checkPassword(password: string, email: string): string[] {
  const problems: string[] = [];
  if (password.length < minimumPasswordLength) {
    problems.push(
      `This password is too short. It must contain at least ${minimumPasswordLength} characters.`,
    );
  }
  const lowered = password.toLowerCase();
  if (loadCommonPasswords().has(lowered)) problems.push("This password is too common.");
  const address = email.trim().toLowerCase();
  const localPart = address.split("@")[0] ?? "";
  // Very short local parts ("a@x.io") would forbid too many passwords; three letters is the floor.
  if (address && (lowered.includes(address) || (localPart.length >= 3 && lowered.includes(localPart)))) {
    problems.push("The password is too similar to the e-mail address.");
  }
  return problems;
}
