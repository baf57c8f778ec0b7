import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

export const blobBytes = 300 * 1024 * 1024;
const key = "00112233445566778899aabbccddeeff";

export function run(command: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv): void {
  execFileSync(command, args, { cwd, env, stdio: ["ignore", "ignore", "inherit"] });
}

function keystreamCommand(bytes: number, stream: number): string {
  const iv = stream.toString(16).padStart(8, "0").padEnd(32, "0");
  return `head -c ${bytes} /dev/zero | openssl enc -aes-128-ctr -nosalt -K ${key} -iv ${iv}`;
}

/**
 * Incompressible, reproducible bytes: the AES-CTR keystream over zeros under a fixed key. `stream`
 * picks the IV, so files of the same size still differ.
 */
export function writeKeystream(path: string, bytes: number, stream = 0): void {
  execFileSync("bash", ["-c", `${keystreamCommand(bytes, stream)} > "${path}"`], { stdio: "inherit" });
}

export function readKeystream(bytes: number, stream: number): Buffer {
  return execFileSync("bash", ["-c", keystreamCommand(bytes, stream)], { maxBuffer: bytes + 1024 });
}

export function isBuilt(path: string): boolean {
  return existsSync(path) && statSync(path).size > blobBytes;
}
