import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ResignError, type ResignOptions, resignIpa } from "@tarmac/inspector/apple-sign";
import plist from "plist";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dirs.ts";
import { makeResignFixtures, type ResignFixtures } from "./fixtures.ts";
import { verifySignedMachO } from "./signature-check.ts";

let fx: ResignFixtures;
beforeAll(() => {
  fx = makeResignFixtures();
}, 60_000);

const now = new Date("2026-01-15T00:00:00Z");

function options(overrides: Partial<ResignOptions> = {}): ResignOptions {
  return {
    identity: fx.identity(),
    profiles: [fx.profile("app"), fx.profile("widget")],
    bundleIds: {},
    entitlements: null,
    now,
    ...overrides,
  };
}

async function resignAndUnpack(resignOptions: ResignOptions) {
  const dir = tempDir("resigned");
  const output = path.join(dir, "out.ipa");
  const result = await resignIpa(fx.ipa, output, resignOptions);
  const unpacked = path.join(dir, "unpacked");
  execFileSync("unzip", ["-q", output, "-d", unpacked]);
  return { result, root: path.join(unpacked, "Payload", "Demo.app"), scratch: dir };
}

function filesUnder(root: string, prefix = ""): string[] {
  return readdirSync(path.join(root, prefix)).flatMap((name) => {
    const relative = prefix ? `${prefix}/${name}` : name;
    return statSync(path.join(root, relative)).isDirectory() ? filesUnder(root, relative) : [relative];
  });
}

const infoOf = (bundle: string) => {
  const file = path.join(bundle, "Info.plist");
  return plist.parse(execFileSync("plistutil", ["-i", file, "-f", "xml"]).toString()) as Record<
    string,
    unknown
  >;
};

/** Checks a bundle's seal: every own file's SHA-256 in files2, nested code by CodeDirectory hash. */
function checkSeal(bundle: string, executable: string, nested: Record<string, Buffer>) {
  const seal = plist.parse(readFileSync(path.join(bundle, "_CodeSignature", "CodeResources"), "utf8")) as {
    files2: Record<string, { hash2?: Buffer; cdhash?: Buffer }>;
  };
  const nestedRoots = Object.keys(nested);
  const own = filesUnder(bundle).filter(
    (file) =>
      file !== executable &&
      !file.startsWith("_CodeSignature/") &&
      file !== "Info.plist" &&
      file !== "PkgInfo" &&
      !nestedRoots.some((root) => file.startsWith(`${root}/`)),
  );
  expect(Object.keys(seal.files2).sort()).toEqual([...own, ...nestedRoots].sort());
  for (const file of own) {
    const digest = execFileSync("sha256sum", [path.join(bundle, file)])
      .toString()
      .slice(0, 64);
    expect(seal.files2[file]?.hash2?.toString("hex"), file).toBe(digest);
  }
  for (const [root, cdHash] of Object.entries(nested)) {
    expect(seal.files2[root]?.cdhash).toEqual(cdHash.subarray(0, 20));
  }
}

function verifyBundle(bundle: string, executable: string, scratch: string) {
  return verifySignedMachO(readFileSync(path.join(bundle, executable)), {
    caFile: fx.caFile,
    scratch,
    infoPlist: readFileSync(path.join(bundle, "Info.plist")),
    codeResources: readFileSync(path.join(bundle, "_CodeSignature", "CodeResources")),
  });
}

describe("re-signing an IPA", () => {
  it("signs the app, its extension, its fat framework and loose dylib so that an independent check passes", async () => {
    const { result, root, scratch } = await resignAndUnpack(options());
    expect(result.bundles.map((b) => [b.bundle_id, b.profile])).toEqual([
      ["com.tarmac.kit", null],
      ["com.tarmac.demo.widget", "Tarmac widget"],
      ["com.tarmac.demo", "Tarmac app"],
    ]);
    const framework = path.join(root, "Frameworks", "Kit.framework");
    const kit = verifyBundle(framework, "Kit", scratch);
    // Both slices of the fat framework (x86_64 simulator and arm64) are signed.
    expect(kit.map((slice) => slice.cpuType).sort()).toEqual([0x01000007, 0x0100000c]);
    expect(
      kit.every((slice) => slice.identifier === "com.tarmac.kit" && slice.entitlementsXml === null),
    ).toBe(true);
    checkSeal(framework, "Kit", {});

    const widgetDir = path.join(root, "PlugIns", "Widget.appex");
    const [widget] = verifyBundle(widgetDir, "Widget", scratch);
    expect(widget?.identifier).toBe("com.tarmac.demo.widget");
    expect(widget?.entitlementsXml).toContain("<string>TEAMA12345.com.tarmac.demo.widget</string>");
    expect(readFileSync(path.join(widgetDir, "embedded.mobileprovision"))).toEqual(
      fx.bytes("widget.mobileprovision"),
    );
    checkSeal(widgetDir, "Widget", {});

    const [helper] = verifySignedMachO(readFileSync(path.join(root, "Frameworks", "libHelper.dylib")), {
      caFile: fx.caFile,
      scratch,
    });
    expect(helper?.identifier).toBe("libHelper");

    const [app] = verifyBundle(root, "Demo", scratch);
    expect(app).toMatchObject({ identifier: "com.tarmac.demo", teamId: "TEAMA12345", execSegFlags: 1n });
    expect(app?.entitlementsXml).toContain("<string>TEAMA12345.com.tarmac.demo</string>");
    expect(readFileSync(path.join(root, "embedded.mobileprovision"))).toEqual(
      fx.bytes("app.mobileprovision"),
    );
    checkSeal(root, "Demo", {
      "Frameworks/Kit.framework": kit[0]?.cdHash as Buffer,
      "PlugIns/Widget.appex": widget?.cdHash as Buffer,
    });
    // The old seal is replaced, not kept beside the new one.
    expect(readFileSync(path.join(root, "_CodeSignature", "CodeResources"), "utf8")).not.toContain(
      "old seal",
    );
    // llvm's own reader agrees on the load commands.
    const headers = execFileSync("llvm-objdump-14", [
      "--macho",
      "--private-headers",
      path.join(root, "Demo"),
    ]).toString();
    expect(headers).toContain("LC_CODE_SIGNATURE");
  });

  it("rewrites bundle ids (nested ones follow a mapped prefix) and signs with a wildcard profile", async () => {
    const { result, root, scratch } = await resignAndUnpack(
      options({ profiles: [fx.profile("wildcard")], bundleIds: { "com.tarmac.demo": "com.acme.demo" } }),
    );
    expect(result.bundles.map((b) => b.bundle_id)).toEqual([
      "com.tarmac.kit",
      "com.acme.demo.widget",
      "com.acme.demo",
    ]);
    expect(infoOf(root).CFBundleIdentifier).toBe("com.acme.demo");
    expect(infoOf(root).CFBundleShortVersionString).toBe("1.4.0");
    expect(infoOf(path.join(root, "PlugIns", "Widget.appex")).CFBundleIdentifier).toBe(
      "com.acme.demo.widget",
    );
    const [app] = verifyBundle(root, "Demo", scratch);
    expect(app?.identifier).toBe("com.acme.demo");
    // The wildcard application identifier is narrowed to the bundle's own id.
    expect(app?.entitlementsXml).toContain("<string>TEAMA12345.com.acme.demo</string>");
    expect(app?.entitlementsXml).toContain("<string>TEAMA12345.*</string>");
  });

  it("uses custom entitlements for the main app when given", async () => {
    const { root, scratch } = await resignAndUnpack(
      options({ entitlements: { "get-task-allow": true, "aps-environment": "development" } }),
    );
    const [app] = verifyBundle(root, "Demo", scratch);
    expect(app?.entitlementsXml).toContain("<key>aps-environment</key>");
    expect(app?.entitlementsXml).toContain("<string>TEAMA12345.com.tarmac.demo</string>");
    // get-task-allow lets the debugger in: the main binary's exec segment says so.
    expect(app?.execSegFlags).toBe(0x11n);
  });

  const refusals: Array<[string, () => Partial<ResignOptions>, string, RegExp]> = [
    [
      "a profile without the p12's certificate",
      () => ({ profiles: [fx.profile("old-certificate"), fx.profile("widget")] }),
      "certificate_not_in_profile",
      /not one of the developer certificates/,
    ],
    [
      "an expired profile",
      () => ({ profiles: [fx.profile("expired"), fx.profile("widget")] }),
      "expired",
      /expired on 2024-06-01/,
    ],
    [
      "an expired certificate",
      () => ({ identity: fx.identity("old") }),
      "expired",
      /certificate expired on 2021-01-01/,
    ],
    [
      "a bundle without a matching profile",
      () => ({ profiles: [fx.profile("app")] }),
      "profile_mismatch",
      /com\.tarmac\.demo\.widget/,
    ],
    [
      "another team's profile",
      () => ({ profiles: [fx.profile("other-team"), fx.profile("widget")] }),
      "profile_mismatch",
      /team TEAMB67890/,
    ],
    [
      "an unknown bundle id to map",
      () => ({ bundleIds: { "com.nowhere.app": "com.acme.app" } }),
      "profile_mismatch",
      /com\.nowhere\.app/,
    ],
  ];
  it.each(refusals)("refuses %s before signing anything", async (_label, change, reason, message) => {
    const output = path.join(tempDir("refused"), "out.ipa");
    const error = await resignIpa(fx.ipa, output, options(change())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResignError);
    expect((error as ResignError).reason).toBe(reason);
    expect((error as ResignError).message).toMatch(message);
    expect(() => statSync(output)).toThrow();
  });

  it("opens p12 files in both the legacy and the current encryption, and refuses a wrong password", async () => {
    const { readP12Identity } = await import("../../src/modules/ios-signing/p12-identity.ts");
    expect(readP12Identity(fx.bytes("signer-legacy.p12"), fx.password).certificate).toEqual(
      fx.identity().certificate,
    );
    expect(() => readP12Identity(fx.bytes("signer.p12"), "wrong")).toThrow(/password is wrong/);
    expect(() => readP12Identity(Buffer.from("not a p12"), "x")).toThrow(/not a readable PKCS#12/);
  });
});
