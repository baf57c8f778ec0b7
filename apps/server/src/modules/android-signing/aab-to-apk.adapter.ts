import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { convertAabToUniversalApk } from "@tarmac/inspector";
import { buildUniversalApks } from "../upload/aab-converter.ts";
import { openZipEntry } from "../upload/apks-entry.ts";

/** Turns an AAB into an unsigned universal APK (aligned); signing is the caller's. */
export interface AabToApkConverter {
  readonly available: boolean;
  convert(input: string, output: string): Promise<void>;
}

/**
 * The one place that knows how bundles are converted: in TypeScript by default (the inspector's
 * converter, no Java), or by bundletool when BUNDLETOOL_JAR is set (for bundles that use what the
 * TypeScript converter does not carry over). Either way the app's key signs the result after.
 */
export function aabToApkConverter(config: { BUNDLETOOL_JAR?: string; JAVA_BIN: string }): AabToApkConverter {
  const jar = config.BUNDLETOOL_JAR;
  if (!jar) {
    return {
      available: true,
      async convert(input, output) {
        await convertAabToUniversalApk(input, output);
      },
    };
  }
  return {
    available: true,
    async convert(input, output) {
      const workDir = await mkdtemp(path.join(path.dirname(output), "bundletool-"));
      try {
        const apks = await buildUniversalApks(
          { javaBin: config.JAVA_BIN, bundletoolJar: jar },
          input,
          workDir,
        );
        const entry = await openZipEntry(apks, "universal.apk");
        await pipeline(entry.stream, createWriteStream(output));
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },
  };
}
