import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readProfile } from "@tarmac/inspector/apple-sign";
import { readP12Identity } from "../../src/modules/ios-signing/p12-identity.ts";
import { tempDir } from "../helpers/temp-dirs.ts";

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "make-resign-fixtures.sh");

/** Builds the re-signing fixtures (real clang/lld binaries, openssl identities) into a temporary folder. */
export function makeResignFixtures(resourceMegabytes = 0) {
  const dir = tempDir("resign-fixtures");
  execFileSync("bash", [script, dir, String(resourceMegabytes)], { stdio: "pipe" });
  const file = (name: string) => path.join(dir, name);
  return {
    dir,
    file,
    ipa: file("demo.ipa"),
    caFile: file("ca.pem"),
    password: "fixture-pass",
    bytes: (name: string) => readFileSync(file(name)),
    identity: (name = "signer") => readP12Identity(readFileSync(file(`${name}.p12`)), "fixture-pass"),
    profile: (name: string) => readProfile(readFileSync(file(`${name}.mobileprovision`)), name),
  };
}

export type ResignFixtures = ReturnType<typeof makeResignFixtures>;
