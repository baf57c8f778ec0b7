/**
 * Store uploads of a big build (BENCH_STORE_MIB, default 1024): to the App Store Connect fake
 * (slices of 8 MiB PUT one after another, then the MD5 check) and to the Google Play fake
 * (resumable chunks of 8 MiB, then the SHA-256 check), both on loopback, from the local storage
 * driver. What counts is the growth of the process's resident memory above its level before
 * the upload: the file goes out as slices read from storage one at a time, never whole.
 * Run alone: `npx tsx bench/store-upload-bench.ts` (or BENCH_ONLY=store npm run bench).
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { AppStoreConnectClient } from "../src/modules/store/app-store-connect.ts";
import { publishToTestFlight } from "../src/modules/store/apple-publisher.ts";
import { GooglePlayClient } from "../src/modules/store/google-play.ts";
import { publishToGooglePlay } from "../src/modules/store/google-publisher.ts";
import type { StoreUploadOptions } from "../src/modules/store/store-upload.facts.ts";
import { LocalStorageDriver } from "../src/platform/storage/local-driver.ts";
import { AppStoreConnectPeer } from "../test/helpers/app-store-connect-peer.ts";
import { GooglePlayPeer } from "../test/helpers/google-play-peer.ts";
import { removeTempDirs } from "../test/helpers/temp-dirs.ts";

const mib = 1024 * 1024;

/** A file of `sizeMib` MiB streamed into storage from one repeated random block. */
function bigFile(sizeMib: number): Readable {
  const block = randomBytes(mib);
  return Readable.from(
    (function* () {
      for (let i = 0; i < sizeMib; i++) yield block;
    })(),
  );
}

/** Samples the resident set every 50 ms while `work` runs; answers the highest growth over `base`. */
async function peakGrowth(work: () => Promise<unknown>): Promise<{ growthMib: number; seconds: number }> {
  globalThis.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { growthMib: (peak - base) / mib, seconds: (performance.now() - started) / 1000 };
}

export async function runStoreUploadBench(sizeMib: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tarmac-store-bench-"));
  const storage = new LocalStorageDriver(dir, { url: () => "" } as never);
  const apple = new AppStoreConnectPeer();
  const google = new GooglePlayPeer();
  try {
    const stored = await storage.put("bench/build.bin", bigFile(sizeMib));
    apple.sliceBytes = 8 * mib;
    const appleUrl = await apple.start();
    const googleUrl = await google.start();
    const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    apple.addKey("BENCHKEY01", "00000000-0000-4000-8000-000000000000", ec.publicKey);
    apple.addApp("com.example.bench", "Bench");
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
    google.addServiceAccount("bench@example.iam.gserviceaccount.com", rsa.publicKey);
    google.addApp("com.example.bench", ["bench@example.iam.gserviceaccount.com"]).nextVersionCode = 1;
    const options: StoreUploadOptions = {
      fileKey: "bench/build.bin",
      fileName: "build.ipa",
      fileSize: stored.size,
      sha256: stored.sha256,
      bundleId: "com.example.bench",
      version: "1.0",
      buildNumber: "1",
      releaseNotes: "",
      language: "en-US",
      track: "internal",
      rollout: 100,
      groups: [],
    };
    const steps = { storage, pollMs: 10, maxPollMs: 60_000, save: async () => {} };
    const appleClient = new AppStoreConnectClient(
      appleUrl,
      {
        issuerId: "00000000-0000-4000-8000-000000000000",
        keyId: "BENCHKEY01",
        privateKey: ec.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      },
      { allowPrivateTargets: true },
    );
    const testFlight = await peakGrowth(() =>
      publishToTestFlight(
        appleClient,
        options,
        { sent: [], uploaded: false, notesSet: false, groupsSet: false },
        steps,
      ),
    );
    const googleClient = new GooglePlayClient(
      {
        client_email: "bench@example.iam.gserviceaccount.com",
        private_key: rsa.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      },
      { tokenUrl: google.tokenUrl, apiUrl: googleUrl },
      { allowPrivateTargets: true },
    );
    const play = await peakGrowth(() =>
      publishToGooglePlay(googleClient, options, { trackSet: false }, steps),
    );
    return { sizeMib, testFlight, play };
  } finally {
    await apple.stop();
    await google.stop();
    rmSync(dir, { recursive: true, force: true });
    removeTempDirs();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizeMib = Number(process.env.BENCH_STORE_MIB ?? 1024);
  const result = await runStoreUploadBench(sizeMib);
  for (const [name, figures] of [
    ["TestFlight", result.testFlight],
    ["Google Play", result.play],
  ] as const) {
    console.log(
      `store upload ${sizeMib} MiB to ${name}: ${figures.seconds.toFixed(1)} s (${(sizeMib / figures.seconds).toFixed(0)} MiB/s), resident memory growth ${figures.growthMib.toFixed(1)} MiB`,
    );
  }
}
