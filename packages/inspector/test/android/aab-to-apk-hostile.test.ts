import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { convertAabToUniversalApk } from "../../src/android/aab-to-apk/index.ts";
import { InspectError } from "../../src/errors.ts";
import { fileSource } from "../../src/source.ts";
import { openZip } from "../../src/zip/index.ts";
import { androidFixture } from "./fixture-paths.ts";
import { buildZip, type SyntheticEntry } from "./zip-builder.ts";

const scratch = mkdtempSync(join(tmpdir(), "tarmac-aab-hostile-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function bundleEntries(): Promise<SyntheticEntry[]> {
  const zip = await openZip(await fileSource(androidFixture("modular.aab")));
  const entries: SyntheticEntry[] = [];
  for (const entry of zip.entries)
    if (!entry.isDirectory) entries.push({ name: entry.name, data: await zip.read(entry), deflate: true });
  return entries;
}

describe("hostile bundles", () => {
  it("only ever fail with an InspectError when their protobuf manifest, resource table or XML is damaged", {
    timeout: 120_000,
  }, async () => {
    const entries = await bundleEntries();
    const targets = entries.filter((e) =>
      /(AndroidManifest\.xml|resources\.pb|\.xml|BundleConfig\.pb)$/.test(String(e.name)),
    );
    const next = random(34);
    const input = join(scratch, "damaged.aab");
    const output = join(scratch, "damaged.apk");
    let refused = 0;
    for (let round = 0; round < 80; round++) {
      const target = targets[Math.floor(next() * targets.length)] as SyntheticEntry;
      const damaged = Buffer.from(target.data);
      for (let flips = 1 + Math.floor(next() * 4); flips > 0; flips--)
        damaged[Math.floor(next() * damaged.length)] = Math.floor(next() * 256);
      writeFileSync(input, buildZip(entries.map((e) => (e === target ? { ...e, data: damaged } : e))));
      try {
        await convertAabToUniversalApk(input, output);
      } catch (error) {
        if (!(error instanceof InspectError))
          throw new Error(`round ${round} (${String(target.name)}): ${error}`);
        refused++;
      }
    }
    // Some damage is harmless (a changed letter in a string); much of it must be caught.
    expect(refused).toBeGreaterThan(10);
  });
});
