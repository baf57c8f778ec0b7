/**
 * Collecting iPhone and iPad UDIDs: a signed "Profile Service" profile makes the device send its
 * identifiers back; the challenge inside the profile ties the reply to the request that asked.
 */
import { createHash, randomBytes } from "node:crypto";
import type { AppType, DeviceBuild, UdidDevice, UdidLookupResult } from "@tarmac/contracts";
import { AppError } from "../../http/errors.ts";
import { enforceRateLimit } from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import { canOnApp, canSeeBuild } from "../application/application.policy.ts";
import { coversEnvironment } from "../application/application.service.ts";
import type { ReleaseService } from "../application/release.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import {
  buildProfileServicePayload,
  loadOrCreateSigningIdentity,
  type SigningIdentity,
  signProfile,
} from "./lib/device-profile.ts";
import { DeviceReplyError, readDeviceReply } from "./lib/device-reply.ts";
import {
  completeEnrollment,
  type DeviceRow,
  deleteEnrollmentsExpiredBefore,
  findOpenEnrollment,
  insertEnrollment,
  listUserDevices,
  saveDevice,
} from "./udid.repo.ts";

const enrollmentTtlMs = 3600 * 1000;
// Each profile download stores a row; anonymous callers must not be able to fill the table.
const profilesPerAddress = { limit: 30, windowMs: 3600 * 1000 };

export interface UdidServiceDeps {
  db: Database;
  releases: Pick<ReleaseService, "provisionedBuilds">;
  membership: Pick<MembershipService, "listMemberships">;
  publicUrl: string;
  dataDir: string;
  signingCertPath?: string | null;
  signingKeyPath?: string | null;
}

const hashChallenge = (challenge: string) => createHash("sha256").update(challenge).digest("hex");

export class UdidService {
  private identity: Promise<SigningIdentity> | null = null;

  constructor(private readonly deps: UdidServiceDeps) {}

  /** Loaded on first use and kept: generating the self-signed pair takes a moment. */
  private signingIdentity(): Promise<SigningIdentity> {
    this.identity ??= loadOrCreateSigningIdentity({
      certPath: this.deps.signingCertPath ?? null,
      keyPath: this.deps.signingKeyPath ?? null,
      dataDir: this.deps.dataDir,
      organizationName: "Tarmac",
    }).catch((error) => {
      this.identity = null;
      throw error;
    });
    return this.identity;
  }

  /** A signed .mobileconfig with a fresh challenge, remembered (hashed) for an hour. */
  async createProfile(userId: number | null, clientAddress: string): Promise<Buffer> {
    const { limit, windowMs } = profilesPerAddress;
    await enforceRateLimit(this.deps.db, `udid-profile:${clientAddress}`, limit, windowMs);
    const challenge = randomBytes(24).toString("base64url");
    await insertEnrollment(this.deps.db, {
      challengeHash: hashChallenge(challenge),
      userId,
      expiresAt: new Date(Date.now() + enrollmentTtlMs),
    });
    const host = new URL(this.deps.publicUrl).hostname;
    const xml = buildProfileServicePayload({
      url: `${this.deps.publicUrl}/api/udid/enroll/`,
      organization: "Tarmac",
      displayName: "Tarmac device registration",
      identifier: `${host.split(".").reverse().join(".")}.udid`,
      challenge,
    });
    return signProfile(xml, await this.signingIdentity());
  }

  async deleteExpiredEnrollments(now = new Date()): Promise<number> {
    return deleteEnrollmentsExpiredBefore(this.deps.db, new Date(now.getTime() - 24 * 3600 * 1000));
  }

  /** Reads the device's signed reply and returns where the device's browser goes next. */
  async enroll(body: Buffer): Promise<string> {
    let reply: ReturnType<typeof readDeviceReply>;
    try {
      reply = readDeviceReply(body);
    } catch (error) {
      if (error instanceof DeviceReplyError) throw AppError.badRequest(error.message);
      throw error;
    }
    if (!reply.challenge) throw AppError.badRequest("The device reply carries no challenge.");
    const enrollment = await findOpenEnrollment(this.deps.db, hashChallenge(reply.challenge), new Date());
    if (!enrollment)
      throw AppError.badRequest("Unknown or expired registration; download the profile again.");
    const device = await this.deps.db.transaction(async (tx) => {
      const saved = await saveDevice(tx, {
        userId: enrollment.userId,
        udid: reply.udid,
        product: reply.product,
        osVersion: reply.version,
        serial: reply.serial,
        imei: reply.imei,
      });
      if (!(await completeEnrollment(tx, enrollment.id, saved.id))) {
        throw AppError.badRequest("This registration was already used; download the profile again.");
      }
      return saved;
    });
    const query = new URLSearchParams({
      udid: device.udid,
      product: device.product ?? "",
      version: device.osVersion ?? "",
    });
    return `${this.deps.publicUrl}/get-my-udid?${query.toString()}`;
  }

  async listDevices(userId: number): Promise<UdidDevice[]> {
    const rows = await listUserDevices(this.deps.db, userId);
    const builds = await this.buildsFor(
      userId,
      rows.map((row) => row.udid),
    );
    return rows.map((row) => presentDevice(row, builds.get(row.udid.toLowerCase()) ?? []));
  }

  async lookup(userId: number, udid: string): Promise<UdidLookupResult> {
    const builds = await this.buildsFor(userId, [udid]);
    return { udid, builds: builds.get(udid.toLowerCase()) ?? [] };
  }

  /** Builds the user may see whose profiles list each UDID, keyed by lower-cased UDID. */
  private async buildsFor(userId: number, udids: string[]): Promise<Map<string, DeviceBuild[]>> {
    const roles = new Map(
      (await this.deps.membership.listMemberships(userId)).map((member) => [
        member.organizationId,
        member.role,
      ]),
    );
    const rows = await this.deps.releases.provisionedBuilds([...roles.keys()], userId, udids);
    const byUdid = new Map<string, DeviceBuild[]>();
    for (const found of rows) {
      const row = { ...found, role: roles.get(found.version.organizationId) ?? 0 };
      const visible = coversEnvironment(
        row.projectAccess?.accessEnvs ? row.projectAccess : null,
        row.app.environment,
      );
      if (!canOnApp(row.role, "app:read", { visible }) || !canSeeBuild(row.role, row.version)) continue;
      const build: DeviceBuild = {
        id: row.version.id,
        app: row.app.id,
        title: row.app.title,
        app_type: row.app.appType as AppType,
        version: row.version.version,
        build_version_number: row.version.buildNumber,
        date: row.version.createdAt.toISOString(),
      };
      for (const udid of row.matched) {
        const list = byUdid.get(udid) ?? [];
        list.push(build);
        byUdid.set(udid, list);
      }
    }
    return byUdid;
  }
}

function presentDevice(row: DeviceRow, builds: DeviceBuild[]): UdidDevice {
  return {
    id: row.id,
    udid: row.udid,
    product: row.product,
    os_version: row.osVersion,
    serial: row.serial,
    imei: row.imei,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    builds,
  };
}
