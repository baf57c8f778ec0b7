/**
 * Server benchmarks (npm run bench):
 * 1. A streamed upload through POST /api/applicationadd/?preload=1 against a minimal Node HTTP
 *    sink writing the same bytes to the same disk, in the same run; server memory growth.
 * 2. Lists and searches at scale, 32 clients: the apps list (title searches and random pages,
 *    each first in a process that has presented no app, then first pages, any page and title
 *    searches), a random app's builds, testers, staff and teams, with 10,000 apps / 100,000
 *    versions on the embedded database and, when reachable (BENCH_DATABASE_URL), 100,000 apps /
 *    1,000,000 versions on PostgreSQL; the seed time of each; each list's throughput as a share
 *    of the liveness check's in the same run (the machine's reference) (BENCH_EMBEDDED_APPS,
 *    BENCH_POSTGRES_APPS, BENCH_TARGET=PostgreSQL or embedded to run one).
 * 2b. A title search over 100,000 apps in memory: a scan of every text against the trigram
 *    index (BENCH_ONLY=search runs it alone).
 * 3. Bulk changes on PostgreSQL: deleting an app with 100,000 versions (time, and how long the
 *    organization row stays locked), and statements of 8,000/32,000 versions with and without
 *    the catalog triggers.
 * 1b. The same upload into an S3-compatible bucket (s3rver, STORAGE_DRIVER=s3) against a plain
 *    streamed PutObject of the same bytes; server memory growth; what inspecting it fetches.
 * 4. Start-up of one whole process, cold and warm, and its idle memory: the built bundle against
 *    the sources under the tsx loader (startup-bench.ts).
 * 5. Hostile SAML answers (hostile-sso-bench.ts): refusing a deeply nested post, and the liveness
 *    check's throughput while four clients post them against the same check alone.
 * 1c. A resumable (tus) upload against the plain streamed one, same bytes, same run, and a resume
 *    after a cut at half the file: how much was sent in all (resumable-bench.ts).
 * 6. Re-signing a 300 MiB IPA (resign-bench.ts): time and peak memory of the re-signing process
 *    (BENCH_RESIGN_MIB, BENCH_ONLY=resign).
 * 7. Store uploads of the same size to the App Store Connect and Google Play fakes: resident memory
 *    growth while the build goes out in slices (store-upload-bench.ts).
 * BENCH_UPLOAD_MIB (default 1024), BENCH_RUNS (default 5), BENCH_SECONDS (default 10).
 */
import { spawnSync } from "node:child_process";
import { runBucketBench } from "./bucket-bench.ts";
import { runBulkBench } from "./bulk-bench.ts";
import { runHostileSsoBench } from "./hostile-sso-bench.ts";
import { referenceCase, runListBench } from "./list-bench.ts";
import { runResignBench } from "./resign-bench.ts";
import { runResumableBench } from "./resumable-bench.ts";
import { runSearchIndexBench } from "./search-index-bench.ts";
import { runStartupBench, type StartFigures } from "./startup-bench.ts";
import { runStoreUploadBench } from "./store-upload-bench.ts";
import { mib, runUploadBench } from "./upload-bench.ts";

const uploadMib = Number(process.env.BENCH_UPLOAD_MIB ?? 1024);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const only = process.env.BENCH_ONLY ?? "";
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const fixed = (value: number) => value.toFixed(1);

if (!only || only === "upload") {
  const upload = await runUploadBench(uploadMib, runs);
  const ratio = median(upload.ratios);
  console.log(`upload ${uploadMib} MiB x${runs} (median)`);
  console.log(`  sink    ${fixed(median(upload.sink))} MiB/s  [${upload.sink.map(fixed).join(", ")}]`);
  console.log(`  tarmac  ${fixed(median(upload.tarmac))} MiB/s  [${upload.tarmac.map(fixed).join(", ")}]`);
  console.log(
    `  ratio   ${(ratio * 100).toFixed(0)}% of the sink, median of pairs [${upload.ratios.map((r) => (r * 100).toFixed(0)).join(", ")}] (target >= 70%)`,
  );
  console.log(`  server memory growth max ${fixed(Math.max(...upload.growth))} MiB (target < 100 MB)`);
}

if (!only || only === "resumable") {
  const tus = await runResumableBench(uploadMib, runs);
  const ratio = median(tus.ratios);
  console.log(`resumable upload (tus, 64 MiB PATCHes, 16 MiB parts) ${uploadMib} MiB x${runs} (median)`);
  console.log(`  streamed preload  ${fixed(median(tus.plain))} MiB/s  [${tus.plain.map(fixed).join(", ")}]`);
  console.log(
    `  tus + finish      ${fixed(median(tus.resumable))} MiB/s  [${tus.resumable.map(fixed).join(", ")}]`,
  );
  console.log(`  ratio             ${(ratio * 100).toFixed(0)}% of the streamed preload (target >= 90%)`);
  console.log(
    `  finish (preload with upload_id) ${median(tus.finishSeconds).toFixed(2)} s  [${tus.finishSeconds.map((s) => s.toFixed(2)).join(", ")}]`,
  );
  const { resume } = tus;
  console.log(
    `  resume after a cut at ${fixed(resume.cutAt / mib)} MiB: went on from ${fixed(resume.offset / mib)} MiB, sent ${fixed(resume.sentAfter / mib)} MiB more; ${(resume.resentShare * 100).toFixed(1)}% of the file sent twice`,
  );
}

if (!only || only === "bucket") {
  const bucket = await runBucketBench(uploadMib, runs);
  const ratio = median(bucket.ratios);
  console.log(`upload ${uploadMib} MiB into an S3-compatible bucket (s3rver) x${runs} (median)`);
  console.log(
    `  plain PutObject  ${fixed(median(bucket.plain))} MiB/s  [${bucket.plain.map(fixed).join(", ")}]`,
  );
  console.log(
    `  plain multipart  ${fixed(median(bucket.multipart))} MiB/s  [${bucket.multipart.map(fixed).join(", ")}]`,
  );
  console.log(
    `  tarmac (s3)      ${fixed(median(bucket.tarmac))} MiB/s  [${bucket.tarmac.map(fixed).join(", ")}]`,
  );
  console.log(
    `  ratio   ${(ratio * 100).toFixed(0)}% of the plain PutObject, median of pairs [${bucket.ratios.map((r) => (r * 100).toFixed(0)).join(", ")}] (target >= 80%)`,
  );
  console.log(
    `  ratio   ${(median(bucket.multipartRatios) * 100).toFixed(0)}% of the plain multipart upload, median of pairs [${bucket.multipartRatios.map((r) => (r * 100).toFixed(0)).join(", ")}]`,
  );
  console.log(`  server memory growth max ${fixed(Math.max(...bucket.growth))} MiB (target < 100 MB)`);
  const { inspection } = bucket;
  console.log(
    `  inspecting the stored build: ${fixed(inspection.ms)} ms, ${inspection.requests} ranged GETs, ${fixed(inspection.fetchedBytes / 1024)} KiB fetched of ${fixed(bucket.totalBytes / 1024 / 1024)} MiB`,
  );
}

if (!only || only === "list" || only === "search") {
  const search = await runSearchIndexBench();
  const show = (figures: { p50: number; p90: number; mean: number }) =>
    `p50 ${figures.p50.toFixed(2)} ms, p90 ${figures.p90.toFixed(2)} ms, mean ${figures.mean.toFixed(2)} ms`;
  console.log(
    `title search in memory, ${search.rows.toLocaleString("en")} apps (${(search.characters / 1e6).toFixed(1)} M characters), 500 terms:`,
  );
  console.log(`  scan of every text: ${show(search.scan)}`);
  console.log(
    `  trigram index:      ${show(search.index)} (${(search.scan.mean / search.index.mean).toFixed(1)}x the scan on average)`,
  );
  console.log(`  index built in ${search.buildMs.toFixed(0)} ms, ${search.indexMiB.toFixed(1)} MiB`);
  const { sliced } = search;
  console.log(
    `  in slices, as the server builds it: ${sliced.wallMs.toFixed(0)} ms in all, ${sliced.slices} slices, the longest ${sliced.longestSliceMs.toFixed(1)} ms`,
  );
}

if (!only || only === "list") {
  // The embedded database is meant for small teams: 10,000 apps; PostgreSQL for large catalogs.
  const embeddedApps = Number(process.env.BENCH_EMBEDDED_APPS ?? 10_000);
  const postgresApps = Number(process.env.BENCH_POSTGRES_APPS ?? 100_000);
  const targets: Array<[string, string | undefined, number, number]> = [
    ["embedded (PGlite)", undefined, embeddedApps, 80],
  ];
  const pgUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = `tarmac_bench_${process.pid}`;
  const psql = (command: string) =>
    spawnSync("psql", [pgUrl, "-qc", command], { encoding: "utf8" }).status === 0;
  const hasPostgres = psql(`create database ${database}`);
  if (hasPostgres) targets.push(["PostgreSQL", pgUrl.replace(/\/[^/]*$/, `/${database}`), postgresApps, 50]);
  try {
    for (const [label, url, apps, target] of targets) {
      if (only === "list" && process.env.BENCH_TARGET && !label.startsWith(process.env.BENCH_TARGET))
        continue;
      const bench = await runListBench(url, { apps, versionsPerApp: 10, seconds, clients: 32 });
      console.log(
        `${label}, ${apps.toLocaleString("en")} apps / ${(apps * 10).toLocaleString("en")} versions seeded in ${fixed(bench.seedSeconds)} s (catalog triggers on)`,
      );
      const { [referenceCase]: reference, ...lists } = bench.results;
      if (reference) {
        console.log(
          `  ${referenceCase}, 32 clients ${seconds}s: p50 ${fixed(reference.p50)} ms, p95 ${fixed(reference.p95)} ms, ${fixed(reference.rps)} req/s`,
        );
      }
      for (const [name, figures] of Object.entries(lists)) {
        const share = reference
          ? `, ${((figures.rps / reference.rps) * 100).toFixed(0)}% of the reference's throughput`
          : "";
        console.log(
          `  ${name}, 32 clients ${seconds}s: p50 ${fixed(figures.p50)} ms, p95 ${fixed(figures.p95)} ms (target < ${target}), ${fixed(figures.rps)} req/s${share}, ${figures.failures} failures`,
        );
      }
    }
  } finally {
    if (hasPostgres) psql(`drop database if exists ${database} with (force)`);
  }
}

if (!only || only === "bulk") {
  const pgUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = `tarmac_bulk_${process.pid}`;
  const psql = (command: string) =>
    spawnSync("psql", [pgUrl, "-qc", command], { encoding: "utf8" }).status === 0;
  if (psql(`create database ${database}`)) {
    try {
      const bulk = await runBulkBench(pgUrl.replace(/\/[^/]*$/, `/${database}`));
      console.log(
        `PostgreSQL delete an app with 100,000 versions: ${fixed(bulk.deleteSeconds * 1000)} ms (status ${bulk.status}, target < 2 s), organization row waited at most ${fixed(bulk.lockedSeconds * 1000)} ms`,
      );
      for (const row of bulk.statements) {
        console.log(
          `PostgreSQL ${row.name} versions: ${fixed(row.triggers * 1000)} ms with catalog triggers, ${fixed(row.without * 1000)} ms without (${(row.triggers / row.without).toFixed(2)}x)`,
        );
      }
    } finally {
      psql(`drop database if exists ${database} with (force)`);
    }
  } else {
    console.log("bulk: no PostgreSQL reachable (BENCH_DATABASE_URL); skipped");
  }
}

if (!only || only === "startup") {
  const results = await runStartupBench(runs);
  const pick = (figures: StartFigures[], key: keyof StartFigures) => median(figures.map((f) => f[key]));
  console.log(`server start-up, whole process, median of ${runs}`);
  for (const [kind, label] of [
    ["bundle", "node dist/main.js (npm start)"],
    ["tsx", "node --import tsx src/main.ts (before)"],
  ] as const) {
    const { cold, warm } = results[kind];
    console.log(
      `  ${label}: cold ${fixed(pick(cold, "readyMs"))} ms, warm ${fixed(pick(warm, "readyMs"))} ms, idle RSS ${fixed(pick(warm, "idleRssMiB"))} MiB`,
    );
  }
  const ratio = (key: "cold" | "warm") =>
    pick(results.tsx[key], "readyMs") / pick(results.bundle[key], "readyMs");
  console.log(`  bundle vs tsx: cold ${ratio("cold").toFixed(2)}x, warm ${ratio("warm").toFixed(2)}x faster`);
}

if (!only || only === "resign") {
  const resign = runResignBench();
  console.log(
    `iOS re-signing of a ${fixed(resign.ipaMib)} MiB IPA: ${resign.seconds.toFixed(2)} s, peak RSS ${fixed(resign.peakRssMb)} MB`,
  );
}

if (!only || only === "sso") {
  const sso = await runHostileSsoBench(seconds);
  const statuses = [...sso.posts.statuses].map(([status, count]) => `${count} x ${status}`).join(", ");
  console.log("hostile SAML answers (20,000 nested elements, 4 clients, each post from its own address)");
  console.log(
    `  in process: parsing one ${fixed(sso.parseMs)} ms (before the screen), screening it ${fixed(sso.screenMs)} ms`,
  );
  console.log(
    `  a post refused: p50 ${fixed(sso.posts.p50)} ms, p95 ${fixed(sso.posts.p95)} ms, ${fixed(sso.posts.rps)} posts/s (${statuses})`,
  );
  console.log(
    `  liveness check alone ${fixed(sso.alone.rps)} req/s (p95 ${fixed(sso.alone.p95)} ms); under the attack ${fixed(sso.underAttack.rps)} req/s (p95 ${fixed(sso.underAttack.p95)} ms): ${((sso.underAttack.rps / sso.alone.rps) * 100).toFixed(0)}% of alone`,
  );
}

if (!only || only === "store") {
  const store = await runStoreUploadBench(uploadMib);
  console.log(`store uploads of ${uploadMib} MiB from local storage to the loopback fakes (slices of 8 MiB)`);
  for (const [name, figures] of [
    ["TestFlight", store.testFlight],
    ["Google Play", store.play],
  ] as const) {
    console.log(
      `  ${name}: ${fixed(figures.seconds)} s (${fixed(uploadMib / figures.seconds)} MiB/s), resident memory growth ${fixed(figures.growthMib)} MiB`,
    );
  }
}
