import { execFileSync, spawnSync } from "node:child_process";

export const hasApksigner = spawnSync("apksigner", ["--version"]).status === 0;

/** Debian's apksigner, the reference verifier: its report, and whether it accepted the APK. */
export function apksignerVerify(apk: string): { ok: boolean; output: string } {
  const run = spawnSync("apksigner", ["verify", "--verbose", "--print-certs", apk], { encoding: "utf8" });
  return { ok: run.status === 0, output: `${run.stdout}\n${run.stderr}` };
}

/** `aapt dump badging` reads the manifest and resources back: the signed APK must still be the same app. */
export function badging(apk: string): string {
  return execFileSync("aapt", ["dump", "badging", apk], { encoding: "utf8" });
}
