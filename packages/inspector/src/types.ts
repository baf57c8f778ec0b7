/** App types of the spec: 0 Android, 1 iOS, 2 Windows, 3 macOS. */
export type AppType = 0 | 1 | 2 | 3;

export type FileType =
  | "apk"
  | "aab"
  | "ipa"
  | "msix"
  | "msixbundle"
  | "msixupload"
  | "appx"
  | "appxbundle"
  | "appxupload"
  | "msi"
  | "dmg"
  | "pkg"
  | "zip";

export interface InspectOptions {
  /** The uploaded file's name; decides the type by extension and feeds the Windows/macOS name rules. */
  fileName: string;
  /** The current app's type; decides how a .zip is read (2 Windows, 3 macOS). */
  appTypeHint?: AppType;
}

export interface CertificateInfo {
  subject: string;
  issuer: string;
  sha256: string; // lower-case hex, no separators
  not_before: string; // ISO-8601
  not_after: string;
}

export interface Icon {
  png: Buffer; // always a standard PNG (CgBI and ICNS converted)
  width: number;
  height: number;
}

export interface ProvisioningInfo {
  signature_valid: boolean; // CMS signature verifies over the content
  kind: "development" | "ad_hoc" | "enterprise" | "app_store";
  name: string;
  uuid: string;
  team_id: string;
  team_name: string;
  app_id_name?: string;
  created: string;
  expires: string;
  expired: boolean;
  devices: string[]; // provisioned UDIDs, as written in the profile
  provisions_all_devices: boolean;
  entitlements: Record<string, unknown>;
  certificates: CertificateInfo[];
}

/**
 * What the inspector knows about a build. Fields that do not apply to a format are undefined;
 * every format sets the first block. Serialized with snake_case keys as-is (the CLI prints it).
 */
export interface BuildInfo {
  app_type: AppType;
  file_type: FileType;
  bundle_id: string | null;
  name: string | null;
  version: string | null;
  build_number: string | null;
  min_os_version: string | null;
  icon: Icon | null;
  signing: SigningInfo | null;

  // Android
  target_sdk_version?: number | null;
  compile_sdk_version?: number | null;
  labels?: Record<string, string>; // locale ("" = default) -> label
  permissions?: string[];
  features?: string[];
  native_abis?: string[];
  debuggable?: boolean;
  bundletool_version?: string | null; // AAB

  // iOS / macOS app bundles
  device_family?: string[]; // "iphone", "ipad", "tv", "watch", "vision"
  extensions?: { bundle_id: string | null; name: string | null; path: string }[];
  provisioning?: ProvisioningInfo | null;

  // Windows
  publisher?: string | null;
  architecture?: string | null;
  manufacturer?: string | null;
  product_code?: string | null;
  upgrade_code?: string | null;

  // macOS pkg: every package of the archive
  packages?: { identifier: string; version: string | null; install_location?: string | null }[];
  /** True when the version came from the file-name rule rather than from metadata. */
  version_from_file_name?: boolean;
  /**
   * .zip only: "contents" when what the archive holds decided the platform (an .app bundle is
   * macOS; an .exe, .msi, .msix/.appx or AppxManifest.xml is Windows), "hint" when the contents
   * could not tell and the current app type (or Windows) did.
   */
  platform_source?: "contents" | "hint";
}

export interface SigningInfo {
  /** Android: "v1", "v2", "v3" present; Windows: "authenticode"; Apple: "cms". */
  schemes: string[];
  signed: boolean;
  certificates: CertificateInfo[];
}
