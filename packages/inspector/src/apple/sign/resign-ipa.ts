/**
 * Re-signs an IPA for installation with another identity: every bundle (frameworks and
 * extensions before the app that holds them) gets its bundle id mapped, its profile embedded,
 * its loose dylibs and executable signed, and its CodeResources sealed again. Files that do not
 * change are copied with their compressed bytes untouched, so a large IPA streams through.
 */
import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PlistDict } from "../../plist/types.ts";
import { type ByteSource, fileSource } from "../../source.ts";
import { openZip } from "../../zip/index.ts";
import type { ZipArchive } from "../../zip/types.ts";
import type { SigningIdentity } from "./cms-signature.ts";
import { buildCodeResources, type FileSeal, type NestedSeal } from "./code-resources.ts";
import { requirementText, signThinImage } from "./code-signature.ts";
import { type IpaBundle, mapBundleId, ownerOf, readIpaBundles } from "./ipa-bundles.ts";
import { isMachO, readFatSlices, writeFat } from "./macho.ts";
import { writeXmlPlist } from "./plist-writer.ts";
import {
  certificateNames,
  checkCertificateDates,
  checkProfileForIdentity,
  entitlementsFor,
  type Profile,
  profileFor,
  ResignError,
} from "./profiles.ts";
import { type Digests, digestsOf, ReplacedFiles } from "./replaced-files.ts";
import { readWholeEntry, streamDigests } from "./zip-entry-stream.ts";
import { ZipWriter } from "./zip-writer.ts";

export interface ResignOptions {
  identity: SigningIdentity;
  profiles: Profile[];
  /** Old bundle id -> new one; ids of nested bundles under a mapped prefix follow it. */
  bundleIds: Record<string, string>;
  /** Replaces the main app's entitlements (the profile's are used otherwise). */
  entitlements: PlistDict | null;
  now: Date;
}

export interface PlannedBundle {
  bundle: IpaBundle;
  newBundleId: string;
  /** Null for frameworks, which carry no profile or entitlements. */
  profile: Profile | null;
  entitlements: PlistDict | null;
}

export interface ResignPlan {
  commonName: string;
  teamId: string;
  bundles: PlannedBundle[];
}

/** Every check that can fail before any signing: dates, certificate membership, profiles per bundle id. */
export function planResign(bundles: IpaBundle[], options: ResignOptions): ResignPlan {
  const x509 = checkCertificateDates(options.identity.certificate, options.now);
  const { commonName, teamId } = certificateNames(x509);
  if (!commonName || !teamId) {
    throw new ResignError(
      "identity",
      "The p12's certificate names no common name or team (OU); it is not an Apple signing certificate.",
    );
  }
  if (options.profiles.length === 0)
    throw new ResignError("profile", "At least one provisioning profile is needed.");
  const mapped = Object.keys(options.bundleIds).filter(
    (old) => !bundles.some((b) => b.bundleId === old || b.bundleId.startsWith(`${old}.`)),
  );
  if (mapped.length > 0) {
    throw new ResignError(
      "profile_mismatch",
      `No bundle in the IPA has the bundle id ${mapped.join(", ")} named in bundle_ids.`,
    );
  }
  const main = bundles.find((bundle) => bundle.depth === 3);
  const planned = bundles.map((bundle): PlannedBundle => {
    const newBundleId = mapBundleId(bundle.bundleId, options.bundleIds);
    if (bundle.kind === "framework") return { bundle, newBundleId, profile: null, entitlements: null };
    const profile = profileFor(options.profiles, newBundleId);
    if (!profile) {
      throw new ResignError(
        "profile_mismatch",
        `No provisioning profile matches the bundle id ${newBundleId} (${bundle.root.slice(8, -1)}).`,
      );
    }
    if (profile.teamId !== teamId) {
      throw new ResignError(
        "profile_mismatch",
        `The provisioning profile "${profile.name}" belongs to team ${profile.teamId}, the p12 to team ${teamId}.`,
      );
    }
    checkProfileForIdentity(profile, options.identity.certificate, options.now);
    const custom = bundle === main ? options.entitlements : null;
    return { bundle, newBundleId, profile, entitlements: entitlementsFor(profile, newBundleId, custom) };
  });
  return { commonName, teamId, bundles: planned };
}

/** Reads the IPA's bundles and checks the request against them without signing anything. */
export async function checkResign(ipaPath: string, options: ResignOptions): Promise<ResignPlan> {
  const source = await fileSource(ipaPath);
  try {
    return planResign(await readIpaBundles(await openZip(source)), options);
  } finally {
    await source.close?.();
  }
}

class Resigner {
  /** Final bytes of every file that changes or is added, by archive path. */
  readonly replaced: ReplacedFiles;
  private readonly digests = new Map<string, Digests>();
  private readonly seals = new Map<string, NestedSeal & { root: string }>();

  constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
    private readonly zip: ZipArchive,
    private readonly plan: ResignPlan,
    private readonly options: ResignOptions,
    scratch: string,
  ) {
    this.replaced = new ReplacedFiles(scratch);
  }

  private async digest(name: string): Promise<Digests> {
    const replaced = this.replaced.digest(name);
    if (replaced) return replaced;
    let known = this.digests.get(name);
    if (!known) {
      const entry = this.zip.find(name);
      if (!entry) throw new Error(`${name} vanished from the archive`);
      known = await streamDigests(this.path, this.handle, entry);
      this.digests.set(name, known);
    }
    return known;
  }

  private async bytesOf(name: string): Promise<Buffer> {
    const replaced = await this.replaced.read(name);
    if (replaced) return replaced;
    const entry = this.zip.find(name);
    if (!entry) throw new Error(`${name} vanished from the archive`);
    return readWholeEntry(this.path, this.handle, entry);
  }

  /** Signs a thin or fat Mach-O; the CodeDirectory hash of the first slice names it to its parent. */
  private signBinary(
    file: Buffer,
    input: Omit<Parameters<typeof signThinImage>[1], "identity" | "commonName" | "teamId" | "signingTime">,
  ) {
    const common = {
      ...input,
      identity: this.options.identity,
      commonName: this.plan.commonName,
      teamId: this.plan.teamId,
      signingTime: this.options.now,
    };
    const slices = readFatSlices(file);
    if (!slices) return signThinImage(file, common);
    let cdHash: Buffer | null = null;
    const signed = slices.map((slice) => {
      const result = signThinImage(slice.data, common);
      cdHash ??= result.cdHash;
      return { ...slice, data: result.image };
    });
    return { image: writeFat(signed), cdHash: cdHash as unknown as Buffer };
  }

  async signBundle(planned: PlannedBundle): Promise<void> {
    const { bundle, newBundleId, profile, entitlements } = planned;
    const names = this.allNames();
    const bundles = this.plan.bundles.map((p) => p.bundle);
    const isOwn = (name: string) => ownerOf(bundles, name) === bundle;
    const own = names.filter(isOwn);
    const infoName = `${bundle.root}Info.plist`;
    if (newBundleId !== bundle.bundleId) {
      await this.replaced.set(
        infoName,
        writeXmlPlist({ ...bundle.infoPlist, CFBundleIdentifier: newBundleId }),
      );
    }
    if (profile) await this.replaced.set(`${bundle.root}embedded.mobileprovision`, profile.der);
    const executable = `${bundle.root}${bundle.executable}`;
    for (const name of own) {
      if (name === executable || !name.endsWith(".dylib")) continue;
      const bytes = await this.bytesOf(name);
      if (!isMachO(bytes.subarray(0, 8))) continue;
      const identifier = name.slice(name.lastIndexOf("/") + 1).replace(/\.dylib$/, "");
      await this.replaced.set(name, this.signBinary(bytes, { identifier }).image);
    }
    const sealName = `${bundle.root}_CodeSignature/CodeResources`;
    const relative = (name: string) => name.slice(bundle.root.length);
    const sealed = [...new Set([...own, ...this.addedUnder(bundle.root).filter(isOwn)])].filter(
      (name) => name !== executable && !name.startsWith(`${bundle.root}_CodeSignature/`),
    );
    const files: FileSeal[] = [];
    for (const name of sealed) files.push({ path: relative(name), ...(await this.digest(name)) });
    const nestedFiles: FileSeal[] = [];
    const ownSet = new Set(own);
    for (const name of names.filter((n) => n.startsWith(bundle.root) && !ownSet.has(n))) {
      nestedFiles.push({ path: relative(name), ...(await this.digest(name)) });
    }
    const nested = [...this.seals.values()]
      .filter((seal) => seal.root.startsWith(bundle.root) && seal.root !== bundle.root)
      .filter((seal) => isOwn(seal.root.slice(0, -1)))
      .map((seal) => ({ ...seal, path: relative(seal.root.slice(0, -1)) }));
    const codeResources = buildCodeResources(files, nestedFiles, nested);
    await this.replaced.set(sealName, codeResources);
    const signed = this.signBinary(await this.bytesOf(executable), {
      identifier: newBundleId,
      infoPlistHash: (await this.digest(infoName)).sha256,
      resourcesHash: digestsOf(codeResources).sha256,
      ...(entitlements ? { entitlements } : {}),
    });
    await this.replaced.set(executable, signed.image);
    this.seals.set(bundle.root, {
      root: bundle.root,
      path: "",
      cdHash: signed.cdHash,
      requirement: requirementText({ identifier: newBundleId, commonName: this.plan.commonName }),
    });
  }

  private allNames(): string[] {
    const names = this.zip.entries.filter((entry) => !entry.isDirectory).map((entry) => entry.name);
    return [...new Set([...names, ...this.replaced.names()])];
  }

  private addedUnder(root: string): string[] {
    return this.replaced.names().filter((name) => name.startsWith(root) && !this.zip.find(name));
  }

  async write(output: string): Promise<void> {
    const out = await open(output, "w");
    try {
      const writer = new ZipWriter(out);
      const executables = new Set(this.plan.bundles.map((p) => `${p.bundle.root}${p.bundle.executable}`));
      const mode = (name: string) => (executables.has(name) || name.endsWith(".dylib") ? 0o755 : 0o644);
      for (const entry of this.zip.entries) {
        const bytes = await this.replaced.read(entry.name);
        if (bytes) await writer.addBuffer(entry.name, bytes, mode(entry.name));
        else await writer.copyEntry(this.handle, this.path, entry, mode(entry.name));
      }
      for (const name of this.replaced.names()) {
        const bytes = await this.replaced.read(name);
        if (bytes && !this.zip.find(name)) await writer.addBuffer(name, bytes, mode(name));
      }
      await writer.finish();
    } finally {
      await out.close();
    }
  }
}

export interface ResignResult {
  bundles: Array<{ path: string; bundle_id: string; profile: string | null }>;
}

/** Re-signs `input` into `output` (a new file). Throws ResignError when the request does not fit the IPA. */
export async function resignIpa(
  input: string,
  output: string,
  options: ResignOptions,
): Promise<ResignResult> {
  const source = await fileSource(input);
  const handle = await open(input, "r");
  const scratch = await mkdtemp(path.join(os.tmpdir(), "tarmac-resign-"));
  try {
    const zip = await openZip(source);
    const plan = planResign(await readIpaBundles(zip), options);
    const resigner = new Resigner(input, handle, zip, plan, options, scratch);
    for (const planned of plan.bundles) await resigner.signBundle(planned);
    await resigner.write(output);
    return {
      bundles: plan.bundles.map(({ bundle, newBundleId, profile }) => ({
        path: bundle.root.slice(0, -1),
        bundle_id: newBundleId,
        profile: profile?.name ?? null,
      })),
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await handle.close();
    await source.close?.();
  }
}

/** The same check on an IPA read by random access (e.g. straight from object storage). */
export async function checkResignSource(source: ByteSource, options: ResignOptions): Promise<ResignPlan> {
  return planResign(await readIpaBundles(await openZip(source)), options);
}
