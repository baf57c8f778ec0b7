import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";

export interface AabConverterConfig {
  javaBin: string;
  bundletoolJar: string;
  keystore: string;
  keystorePassword: string;
  keyAlias: string;
  keyPassword: string;
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
  const keystorePass = path.join(workDir, "ks.pass");
  const keyPass = path.join(workDir, "key.pass");
  await writeFile(keystorePass, config.keystorePassword, { mode: 0o600 });
  await writeFile(keyPass, config.keyPassword, { mode: 0o600 });
  const args = [
    "-jar",
    config.bundletoolJar,
    "build-apks",
    `--bundle=${bundlePath}`,
    `--output=${output}`,
    "--mode=universal",
    "--overwrite",
    `--ks=${config.keystore}`,
    `--ks-pass=file:${keystorePass}`,
    `--ks-key-alias=${config.keyAlias}`,
    `--key-pass=file:${keyPass}`,
  ];
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

export function converterFromConfig(config: {
  JAVA_BIN: string;
  BUNDLETOOL_JAR?: string;
  AAB_KEYSTORE?: string;
  AAB_KEYSTORE_PASSWORD?: string;
  AAB_KEY_ALIAS?: string;
  AAB_KEY_PASSWORD?: string;
}): AabConverterConfig | null {
  const { BUNDLETOOL_JAR, AAB_KEYSTORE, AAB_KEYSTORE_PASSWORD, AAB_KEY_ALIAS, AAB_KEY_PASSWORD } = config;
  if (!BUNDLETOOL_JAR || !AAB_KEYSTORE || !AAB_KEYSTORE_PASSWORD || !AAB_KEY_ALIAS) return null;
  return {
    javaBin: config.JAVA_BIN,
    bundletoolJar: BUNDLETOOL_JAR,
    keystore: AAB_KEYSTORE,
    keystorePassword: AAB_KEYSTORE_PASSWORD,
    keyAlias: AAB_KEY_ALIAS,
    keyPassword: AAB_KEY_PASSWORD ?? AAB_KEYSTORE_PASSWORD,
  };
}
