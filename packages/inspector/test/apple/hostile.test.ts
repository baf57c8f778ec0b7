import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InspectError } from "../../src/errors.ts";
import { inspect } from "../../src/inspect.ts";
import { bufferSource } from "../../src/source.ts";
import type { AppType } from "../../src/types.ts";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/apple/${name}`, import.meta.url));

const cases: { file: string; fileName: string; appTypeHint?: AppType }[] = [
  { file: "ipa/adhoc.ipa", fileName: "adhoc.ipa" },
  { file: "ipa/enterprise.ipa", fileName: "enterprise.ipa" },
  { file: "mac/tarmac-mac.zip", fileName: "tarmac-mac.zip", appTypeHint: 3 },
  { file: "pkg/tarmac-signed.pkg", fileName: "tarmac.pkg" },
  { file: "dmg/Tarmac-koly-2.0.1.dmg", fileName: "Tarmac-2.0.1.dmg" },
];

/** A small deterministic generator so failures reproduce. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function expectInspectErrorOrInfo(
  data: Buffer,
  fileName: string,
  appTypeHint?: AppType,
): Promise<void> {
  const started = Date.now();
  try {
    const info = await inspect(bufferSource(data), { fileName, appTypeHint });
    expect(info.file_type).toBeTypeOf("string");
  } catch (error) {
    if (!(error instanceof InspectError)) throw error;
  }
  expect(Date.now() - started).toBeLessThan(2000);
}

describe("damaged Apple builds", () => {
  for (const { file, fileName, appTypeHint } of cases) {
    it(`${file}: truncations, bit flips and overwritten length fields end in InspectError or a result`, async () => {
      const original = fixture(file);
      const next = random(original.length);
      for (let i = 0; i < 40; i++) {
        await expectInspectErrorOrInfo(
          original.subarray(0, Math.floor(next() * original.length)),
          fileName,
          appTypeHint,
        );
        const flipped = Buffer.from(original);
        for (let j = 0; j < 4; j++) {
          const at = Math.floor(next() * flipped.length);
          flipped[at] = (flipped[at] as number) ^ (1 << Math.floor(next() * 8));
        }
        await expectInspectErrorOrInfo(flipped, fileName, appTypeHint);
        const stomped = Buffer.from(original);
        stomped.writeUInt32BE(0xffffffff, Math.floor(next() * (stomped.length - 4)));
        await expectInspectErrorOrInfo(stomped, fileName, appTypeHint);
      }
    });
  }
});
