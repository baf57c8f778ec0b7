import type { AppType, BuildInfo, FileType } from "./types.ts";

/** Accepted extensions per platform, in the order the spec lists them (§5). */
export const acceptedExtensions: Record<AppType, readonly string[]> = {
  0: [".apk", ".aab"],
  1: [".ipa"],
  2: [".msix", ".msixbundle", ".msixupload", ".zip", ".msi", ".appx", ".appxbundle", ".appxupload"],
  3: [".dmg", ".zip", ".pkg"],
};

const platformWords: Record<AppType, string> = { 0: "android", 1: "ios", 2: "windows", 3: "macos" };

const fixedTypes: Record<string, { appType: AppType; fileType: FileType }> = {
  apk: { appType: 0, fileType: "apk" },
  aab: { appType: 0, fileType: "aab" },
  ipa: { appType: 1, fileType: "ipa" },
  msix: { appType: 2, fileType: "msix" },
  msixbundle: { appType: 2, fileType: "msixbundle" },
  msixupload: { appType: 2, fileType: "msixupload" },
  appx: { appType: 2, fileType: "appx" },
  appxbundle: { appType: 2, fileType: "appxbundle" },
  appxupload: { appType: 2, fileType: "appxupload" },
  msi: { appType: 2, fileType: "msi" },
  dmg: { appType: 3, fileType: "dmg" },
  pkg: { appType: 3, fileType: "pkg" },
};

export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}

/**
 * The spec's "file type decides app type" rule, from the name alone. A .zip follows the current
 * app type (Windows or macOS; Windows without one) until its contents are read: the zip reader
 * lets what the archive holds decide.
 * Returns null for an extension the product does not accept.
 */
export function detectType(
  fileName: string,
  appTypeHint?: AppType,
): { appType: AppType; fileType: FileType } | null {
  const ext = extensionOf(fileName);
  if (ext === "zip") return { appType: appTypeHint === 3 ? 3 : 2, fileType: "zip" };
  return fixedTypes[ext] ?? null;
}

/** Every accepted extension, for the "Unsupported file type. Please upload the ..." message. */
export function acceptedExtensionList(): string {
  return [...new Set(Object.values(acceptedExtensions).flat())].join(", ");
}

/**
 * Windows (and, as a fallback, macOS disk images) take the version from an x.y.z in the file
 * name; the build number is that version without dots, "0" when there is none.
 */
export function versionFromFileName(fileName: string): { version: string; buildNumber: string } {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(base);
  const version = match ? match[0] : "";
  return { version, buildNumber: version.replaceAll(".", "") || "0" };
}

/**
 * The reading of a build that carries no metadata the product can use (a Windows .zip, a disk
 * image, a macOS .zip without an .app): everything known comes from the file name.
 */
export function buildInfoFromFileName(
  fileName: string,
  appType: AppType,
  fileType: FileType,
  name: string | null = null,
): BuildInfo {
  const { version, buildNumber } = versionFromFileName(fileName);
  return {
    app_type: appType,
    file_type: fileType,
    bundle_id: null,
    name,
    version: version || null,
    build_number: buildNumber,
    min_os_version: null,
    icon: null,
    signing: null,
    version_from_file_name: true,
  };
}

/** Lower-cased project title plus the platform word, spaces turned into underscores ("My App" -> "my_app_ios"). */
export function tagName(projectTitle: string, appType: AppType): string {
  return `${projectTitle.trim()} ${platformWords[appType]}`.toLowerCase().replace(/\s+/g, "_");
}

// semver.org's reference expression: major.minor.patch, optional pre-release and build metadata.
const semverPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isSemanticVersion(value: string): boolean {
  return semverPattern.test(value);
}
