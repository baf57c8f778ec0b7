// The measured process of resign-bench.ts: re-signs DIR/demo.ipa once and prints its figures.
import { readFileSync } from "node:fs";
import path from "node:path";
import { readProfile, resignIpa } from "@tarmac/inspector/apple-sign";
import { readP12Identity } from "../src/modules/ios-signing/p12-identity.ts";

const dir = process.argv[2] as string;
const identity = readP12Identity(readFileSync(path.join(dir, "signer.p12")), "fixture-pass");
const profiles = ["app", "widget"].map((name) =>
  readProfile(readFileSync(path.join(dir, `${name}.mobileprovision`)), name),
);
const started = performance.now();
await resignIpa(path.join(dir, "demo.ipa"), path.join(dir, "resigned.ipa"), {
  identity,
  profiles,
  bundleIds: {},
  entitlements: null,
  now: new Date(),
});
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ seconds, peakRssKb: process.resourceUsage().maxRSS }));
