import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";

export interface AabConverterConfig {
  javaBin: string;
  bundletoolJar: string;
  /** Optional: the APK is signed again by Tarmac's own signer with the app's key anyway. */
  signing?: { keystore: string; keystorePassword: string; keyAlias: string; keyPassword: string };
}

const maxOutput = 8 * 1024;
const timeoutMs = 10 * 60 * 1000;

/**
 * Runs `bundletool build-apks --mode=universal` in `workDir` and returns the .apks path.
 * Passwords go through files (bundletool's `file:` form), never the command line, which
 * other users of the machine can read.
 */
export async function buildUniversalApks(
  config: AabConverterConfig,
  bundlePath: string,
  workDir: string,
): Promise<string> {
  const output = path.join(workDir, "universal.apks");
  const args = [
    "-jar",
    config.bundletoolJar,
    "build-apks",
    `--bundle=${bundlePath}`,
    `--output=${output}`,
    "--mode=universal",
    "--overwrite",
  ];
  if (config.signing) {
    const keystorePass = path.join(workDir, "ks.pass");
    const keyPass = path.join(workDir, "key.pass");
    await writeFile(keystorePass, config.signing.keystorePassword, { mode: 0o600 });
    await writeFile(keyPass, config.signing.keyPassword, { mode: 0o600 });
    args.push(
      `--ks=${config.signing.keystore}`,
      `--ks-pass=file:${keystorePass}`,
      `--ks-key-alias=${config.signing.keyAlias}`,
      `--key-pass=file:${keyPass}`,
    );
  }
  await new Promise<void>((resolve, reject) => {
    const child = spawn(config.javaBin, args, { cwd: workDir, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    const collect = (chunk: Buffer) => {
      if (log.length < maxOutput) log += chunk.toString();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`bundletool failed (${signal ?? `exit ${code}`}): ${log.trim().slice(-1000)}`));
    });
  });
  return output;
}
