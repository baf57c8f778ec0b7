import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";
import { InspectError } from "../src/errors.ts";
import { inspect } from "../src/inspect.ts";
import { detectType } from "../src/rules.ts";
import { bufferSource } from "../src/source.ts";
import type { AppType, BuildInfo } from "../src/types.ts";

/** A case that has not ended after this long counts as a hang. */
export const caseTimeoutMs = 2000;
const maxFixtureBytes = 4 * 1024 * 1024;
const fixturesRoot = fileURLToPath(new URL("../fixtures/", import.meta.url));

export interface Fixture {
  path: string; // relative to fixtures/
  data: Buffer;
}

/** Every file under fixtures/, in a stable order, so a seed always names the same case. */
export function loadFixtures(root = fixturesRoot): Fixture[] {
  const out: Fixture[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else if (stat.size <= maxFixtureBytes)
        out.push({ path: relative(root, full), data: readFileSync(full) });
    }
  };
  walk(root);
  return out;
}

/** mulberry32: small, fast and fully determined by its seed. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}

const hostileWords = [0xffffffff, 0x7fffffff, 0x80000000];
const foreignNames = [
  "x.apk",
  "x.aab",
  "x.ipa",
  "x.msi",
  "x.msix",
  "x.msixbundle",
  "x.msixupload",
  "x.zip",
  "x.dmg",
  "x.pkg",
];

/** Offsets near the start and end matter most: headers, end records and central directories live there. */
function pickOffset(random: () => number, length: number): number {
  if (length === 0) return 0;
  const region = random();
  if (region < 0.3) return Math.floor(random() * Math.min(length, 512));
  if (region < 0.6) return Math.max(0, length - 1 - Math.floor(random() * Math.min(length, 2048)));
  return Math.floor(random() * length);
}

interface StoredEntry {
  name: string;
  centralAt: number;
  localAt: number;
  dataAt: number;
  size: number;
}

/** Stored entries of a well-formed zip, found through its end record and central directory. */
function listStoredEntries(data: Buffer): StoredEntry[] {
  const end = data.lastIndexOf(Buffer.from("504b0506", "hex"));
  if (end < 0 || end + 22 > data.length) return [];
  const entries: StoredEntry[] = [];
  let at = data.readUInt32LE(end + 16);
  for (let i = 0; i < data.readUInt16LE(end + 10) && at + 46 <= data.length; i++) {
    if (data.readUInt32LE(at) !== 0x02014b50) break;
    const nameLength = data.readUInt16LE(at + 28);
    const localAt = data.readUInt32LE(at + 42);
    const size = data.readUInt32LE(at + 20);
    if (data.readUInt16LE(at + 10) === 0 && size > 0 && localAt + 30 <= data.length) {
      const dataAt = localAt + 30 + data.readUInt16LE(localAt + 26) + data.readUInt16LE(localAt + 28);
      const name = data.toString("latin1", at + 46, at + 46 + nameLength);
      if (dataAt + size <= data.length) entries.push({ name, centralAt: at, localAt, dataAt, size });
    }
    at += 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
  }
  return entries;
}

/**
 * Changes bytes inside one stored zip entry and fixes its CRC in both headers, so the damage
 * reaches the manifest, plist or inner-package parsers instead of stopping at the CRC check.
 */
function mutateStoredEntry(data: Buffer, random: () => number): { data: Buffer; step: string } | null {
  const entries = listStoredEntries(data);
  const entry = entries[Math.floor(random() * entries.length)];
  if (!entry) return null;
  const copy = Buffer.from(data);
  const content = copy.subarray(entry.dataAt, entry.dataAt + entry.size);
  const edits = 1 + Math.floor(random() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * content.length);
    if (random() < 0.5 || at + 4 > content.length) content[at] = Math.floor(random() * 256);
    else content.writeUInt32LE(hostileWords[Math.floor(random() * hostileWords.length)] as number, at);
  }
  const crc = crc32(content);
  copy.writeUInt32LE(crc, entry.localAt + 14);
  copy.writeUInt32LE(crc, entry.centralAt + 16);
  return { data: copy, step: `entry ${entry.name} x${edits}` };
}

function mutateOnce(data: Buffer, random: () => number): { data: Buffer; step: string } {
  const kind = Math.floor(random() * 5);
  if (kind === 4) {
    const inside = mutateStoredEntry(data, random);
    if (inside) return inside;
  }
  if (kind === 0) {
    const at = Math.floor(random() * data.length);
    return { data: data.subarray(0, at), step: `truncate@${at}` };
  }
  const copy = Buffer.from(data);
  if (kind === 1) {
    const flips = 1 + Math.floor(random() * 8);
    const offsets: number[] = [];
    for (let i = 0; i < flips && copy.length > 0; i++) {
      const at = pickOffset(random, copy.length);
      copy[at] = (copy[at] as number) ^ (1 << Math.floor(random() * 8));
      offsets.push(at);
    }
    return { data: copy, step: `flip@${offsets.join(",")}` };
  }
  if (kind === 2) {
    const word = hostileWords[Math.floor(random() * hostileWords.length)] as number;
    const at = Math.min(pickOffset(random, copy.length), Math.max(0, copy.length - 4));
    if (copy.length >= 4) copy.writeUInt32LE(word, at);
    return { data: copy, step: `word@${at}=0x${word.toString(16)}` };
  }
  const start = Math.floor(random() * data.length);
  const length = Math.floor(random() * Math.min(data.length - start, 4096));
  const target = Math.floor(random() * data.length);
  const range = data.subarray(start, start + length);
  const duplicated = Buffer.concat([data.subarray(0, target), range, data.subarray(target)]);
  return { data: duplicated, step: `dup ${start}+${length}@${target}` };
}

export interface FuzzCase {
  seed: number;
  fixture: string;
  fileName: string;
  appTypeHint: AppType;
  steps: string[];
  data: Buffer;
}

/**
 * The case a seed stands for: the fixture (seed modulo the fixture count, so consecutive seeds
 * cover every file), the name to inspect it under, and 1-3 mutations drawn from the seed.
 */
export function makeCase(fixtures: Fixture[], seed: number): FuzzCase {
  const random = createRandom(seed);
  const fixture = fixtures[((seed % fixtures.length) + fixtures.length) % fixtures.length] as Fixture;
  const base = fixture.path.split("/").pop() ?? "x";
  // Files of other kinds (certificates, plists, PNGs) are fed to the build readers as hostile input.
  const fileName = detectType(base)
    ? base
    : (foreignNames[Math.floor(random() * foreignNames.length)] as string);
  const appTypeHint: AppType = fixture.path.startsWith("apple/") ? 3 : 2;
  let data = fixture.data;
  const steps: string[] = [];
  const rounds = 1 + Math.floor(random() * 3);
  for (let i = 0; i < rounds; i++) {
    const mutated = mutateOnce(data, random);
    data = mutated.data;
    steps.push(mutated.step);
  }
  return { seed, fixture: fixture.path, fileName, appTypeHint, steps, data };
}

export type Outcome =
  | { kind: "info"; ms: number; info: BuildInfo }
  | { kind: "inspect-error"; ms: number; reason: string }
  | { kind: "timeout"; ms: number }
  | { kind: "crash"; ms: number; error: unknown };

export function describeCase(fuzzCase: FuzzCase): string {
  return `seed ${fuzzCase.seed}: ${fuzzCase.fixture} as ${fuzzCase.fileName} (hint ${fuzzCase.appTypeHint}) after ${fuzzCase.steps.join("; ")}`;
}

function isBuildInfo(value: unknown): value is BuildInfo {
  if (typeof value !== "object" || value === null) return false;
  const info = value as Partial<BuildInfo>;
  return [0, 1, 2, 3].includes(info.app_type as number) && typeof info.file_type === "string";
}

/** Runs one case: an InspectError or a BuildInfo within the time bound is the only acceptable end. */
export async function runCase(fuzzCase: FuzzCase): Promise<Outcome> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), caseTimeoutMs);
  });
  try {
    const result = await Promise.race([
      inspect(bufferSource(fuzzCase.data), {
        fileName: fuzzCase.fileName,
        appTypeHint: fuzzCase.appTypeHint,
      }),
      timeout,
    ]);
    const ms = performance.now() - started;
    if (result === "timeout" || ms > caseTimeoutMs) return { kind: "timeout", ms };
    if (!isBuildInfo(result)) return { kind: "crash", ms, error: new Error("result is not a BuildInfo") };
    return { kind: "info", ms, info: result };
  } catch (error) {
    const ms = performance.now() - started;
    if (ms > caseTimeoutMs) return { kind: "timeout", ms };
    if (error instanceof InspectError) return { kind: "inspect-error", ms, reason: error.reason };
    return { kind: "crash", ms, error };
  } finally {
    clearTimeout(timer);
  }
}
