import { z } from "zod";
import { appType } from "./application.ts";
import { pageOf, pageQuery } from "./common.ts";

/** Who may open an install link: anyone, anyone with the password, or signed-in members and testers. */
export const distributionAccess = z.enum(["public", "password", "members"]);
export type DistributionAccess = z.infer<typeof distributionAccess>;

/** Install-link passwords: long enough that guessing them, throttled per link, is hopeless. */
export const minLinkPasswordLength = 8;
const password = z
  .string()
  .min(minLinkPasswordLength, `Ensure this field has at least ${minLinkPasswordLength} characters.`)
  .max(128);
/** ISO-8601 time, or null for a link that never expires. */
const expiresAt = z.iso.datetime({ offset: true }).nullable();
/** 0 = no limit. */
const installLimit = z.number().int().min(0).max(1_000_000);
/** What the link is for ("QA team"); blank or null: unnamed. */
const linkName = z.string().trim().max(100).nullable();

/** POST /api/distributions/ */
export const createDistributionInput = z.object({
  app: z.number().int().positive(),
  /** A version of the app: the link installs that build; null or absent: always the newest. */
  version: z.number().int().positive().nullable().optional(),
  access: distributionAccess.default("public"),
  /** Required when access is "password". */
  password: password.optional(),
  expires_at: expiresAt.optional(),
  install_limit: installLimit.default(0),
  name: linkName.optional(),
});
export type CreateDistributionInput = z.infer<typeof createDistributionInput>;
export type CreateDistributionRequest = z.input<typeof createDistributionInput>;

/** PATCH /api/distributions/{id}/ */
export const updateDistributionInput = z.object({
  access: distributionAccess.optional(),
  /** A new password; keeps the current one when absent. */
  password: password.optional(),
  expires_at: expiresAt.optional(),
  install_limit: installLimit.optional(),
  name: linkName.optional(),
});
export type UpdateDistributionInput = z.infer<typeof updateDistributionInput>;

export const distributionListQuery = z
  .object({ app: z.coerce.number().int().positive() })
  .extend(pageQuery.shape);

/** Installs and downloads through the link. */
export const distributionCounts = z.object({ install: z.number().int(), download: z.number().int() });

/**
 * Whether a link still installs: `expired` once `expires_at` has passed, `used_up` once as many
 * devices as `install_limit` allows have installed through it, else `active`.
 */
export const linkState = z.enum(["active", "expired", "used_up"]);
export type LinkState = z.infer<typeof linkState>;

/** An install link (the app record's `distribution[]` items). */
export const distributionRecord = z
  .object({
    id: z.number().int(),
    app: z.number().int(),
    /** null: the app-level link (always the newest released build of each platform). */
    version: z.number().int().nullable(),
    key: z.string(),
    name: z.string().nullable(),
    /** `{PUBLIC_URL}/getapp/{key}` */
    url: z.string(),
    /** The URL as a QR code: a PNG data URI. */
    qr: z.string(),
    access: distributionAccess,
    has_password: z.boolean(),
    expires_at: z.string().nullable(),
    install_limit: z.number().int(),
    installs_count: z.number().int(),
    counts: distributionCounts,
    expired: z.boolean(),
    limit_reached: z.boolean(),
    state: linkState,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Distribution" });
export type DistributionRecord = z.infer<typeof distributionRecord>;
export const distributionPage = pageOf(distributionRecord);

/** GET /api/distributions/instance/: what install links of this instance can do. */
export const distributionInstance = z
  .object({
    /** iOS installs apps over the air only from HTTPS addresses. */
    ios_installs: z.boolean(),
    /** Why iOS installs are off (null when they work). */
    reason: z.string().nullable(),
  })
  .meta({ id: "DistributionInstance" });
export type DistributionInstance = z.infer<typeof distributionInstance>;

export const getappPlatform = z.enum(["android", "ios", "windows", "macos"]);
export type GetappPlatform = z.infer<typeof getappPlatform>;

/** How a build is installed: iOS opens an itms-services link, everything else downloads a file. */
export const getappInstall = z.object({
  kind: z.enum(["itms", "download"]),
  /** Short-lived and signed: works without a cookie. */
  url: z.string(),
});

export const getappBuild = z.object({
  id: z.number().int(),
  platform: getappPlatform,
  app_type: appType,
  version: z.string(),
  build_version_number: z.string(),
  whats_new: z.string(),
  /** Bytes of the file that is installed (the universal APK for an app bundle). */
  size: z.number().int(),
  min_os_version: z.string().nullable(),
  date: z.string(),
  install: getappInstall,
});
export type GetappBuild = z.infer<typeof getappBuild>;

/** GET /api/getapp/{key}/: the public install page. `builds` is empty while locked. */
export const getappPage = z
  .object({
    title: z.string(),
    icon: z.string().nullable(),
    organization: z.string(),
    description: z.string(),
    access: distributionAccess,
    /** A password link not unlocked by this request's access_token. */
    needs_password: z.boolean(),
    expired: z.boolean(),
    limit_reached: z.boolean(),
    /** iOS installs only over HTTPS. */
    https: z.boolean(),
    builds: z.array(getappBuild),
  })
  .meta({ id: "GetappPage" });
export type GetappPage = z.infer<typeof getappPage>;

export const getappQuery = z.object({ access_token: z.string().max(500).optional() });

export const unlockInput = z.object({ password: z.string().min(1).max(128) });
export const unlockResult = z.object({
  /** Send back as ?access_token= for an hour. */
  access_token: z.string(),
  expires_in: z.number().int(),
});
export type UnlockResult = z.infer<typeof unlockResult>;

/** 403 of a members-only link for a visitor who is not signed in or not allowed. */
export const loginRequiredBody = z.object({ detail: z.string(), login_required: z.literal(true) });

/** GET /api/versions/{id}/installs/ */
export const installCount = z.object({
  platform: z.string(),
  kind: z.enum(["install", "download"]),
  count: z.number().int(),
});
export const versionInstalls = z.array(installCount);
export type InstallCount = z.infer<typeof installCount>;

/** A build whose provisioning profile lists a device. */
export const deviceBuild = z.object({
  id: z.number().int(),
  app: z.number().int(),
  title: z.string(),
  app_type: appType,
  version: z.string(),
  build_version_number: z.string(),
  date: z.string(),
});
export type DeviceBuild = z.infer<typeof deviceBuild>;

export const udidDevice = z
  .object({
    id: z.number().int(),
    udid: z.string(),
    product: z.string().nullable(),
    os_version: z.string().nullable(),
    serial: z.string().nullable(),
    imei: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    builds: z.array(deviceBuild),
  })
  .meta({ id: "Device" });
export type UdidDevice = z.infer<typeof udidDevice>;
export const udidDeviceList = z.array(udidDevice);

export const udidLookupQuery = z.object({
  udid: z
    .string()
    .trim()
    .regex(/^[0-9A-Fa-f-]{24,40}$/),
});
export const udidLookupResult = z.object({ udid: z.string(), builds: z.array(deviceBuild) });
export type UdidLookupResult = z.infer<typeof udidLookupResult>;
