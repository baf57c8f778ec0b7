import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { type FeedbackTag, feedbackTags, type sdkFeedbackReceipt } from "@tarmac/contracts";
import type { z } from "zod";
import { AppError } from "../../http/errors.ts";
import { enforceRateLimit } from "../../http/throttle/throttle.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DomainEvents } from "../../platform/events/domain-events.ts";
import { detectImageType, imageSize } from "../../platform/images/raster-image.ts";
import type { StorageResolver } from "../../platform/storage/storage-resolver.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { insertFeedback } from "./feedback.repo.ts";
import type { FeedbackMailService } from "./feedback-mail.service.ts";
import { unknownKeys } from "./sdk.service.ts";
import { appOfSdkKeys } from "./sdk-keys.ts";

type Receipt = z.infer<typeof sdkFeedbackReceipt>;

/** A screenshot of the largest phone or tablet screen fits easily; anything bigger is not one. */
export const maxScreenshotBytes = 10 * 1024 * 1024;
const maxSide = 8192;
const maxPixels = 40_000_000;

/** Reports one device may send to one app per hour, and one app may receive per hour. */
export const feedbackLimits = { perDevicePerHour: 10, perAppPerHour: 300 };

const textLimits = {
  description: 10_000,
  email: 254,
  build_version: 100,
  system_version: 100,
  device_name: 200,
  device_uudid: 200,
  navigation_stack: 20_000,
} as const;

export interface SubmitDeps {
  db: Database;
  builds: BuildRecordService;
  organizations: OrganizationService;
  storage: StorageResolver;
  events: DomainEvents;
  mails: FeedbackMailService;
  publicUrl: string;
}

/** Receives a report from an app built with the Updraft SDK (`POST /api/feedback-mobile/`). */
export class FeedbackSubmitService {
  constructor(private readonly deps: SubmitDeps) {}

  async submit(
    form: { fields: Record<string, string>; files: Record<string, Buffer> },
    clientAddress: string,
  ): Promise<Receipt> {
    const { fields } = form;
    const app = await appOfSdkKeys(this.deps, fields);
    if (!app) throw unknownKeys();
    if (!app.feedbackEnabled) throw AppError.forbidden("Feedback is turned off for this app.");
    const text = checkedText(fields);
    const tag = (fields.tag ?? "").trim().toLowerCase();
    if (!feedbackTags.includes(tag as FeedbackTag)) {
      throw AppError.validation({ tag: [`Choose one of: ${feedbackTags.join(", ")}.`] });
    }
    const device = text.device_uudid || `address:${clientAddress}`;
    await enforceRateLimit(
      this.deps.db,
      `feedback-device:${app.id}:${device}`,
      feedbackLimits.perDevicePerHour,
      3600_000,
    );
    await enforceRateLimit(this.deps.db, `feedback-app:${app.id}`, feedbackLimits.perAppPerHour, 3600_000);
    const image = checkedImage(form.files.image);

    const { driver } = await this.deps.storage.forOrganization(app.organizationId);
    const stored = await driver.put(
      `orgs/${app.organizationId}/feedback/${randomUUID()}.${image.type.extension}`,
      Readable.from([image.bytes]),
    );
    try {
      const version = text.build_version
        ? await this.deps.builds.findVersionReported(app.id, text.build_version)
        : null;
      const row = await this.deps.db.transaction(async (tx) => {
        const inserted = await insertFeedback(tx, {
          organizationId: app.organizationId,
          applicationId: app.id,
          versionId: version?.id ?? null,
          tag,
          description: text.description,
          email: text.email,
          buildVersion: text.build_version,
          systemVersion: text.system_version,
          deviceName: text.device_name,
          deviceId: text.device_uudid,
          navigationStack: text.navigation_stack,
          imageKey: stored.key,
          imageType: image.type.contentType,
          imageWidth: image.width,
          imageHeight: image.height,
          imageSize: stored.size,
        });
        await this.deps.events.publish(
          {
            type: "feedback.received",
            organizationId: app.organizationId,
            applicationId: app.id,
            versionId: version?.id ?? null,
            data: {
              feedback: {
                id: inserted.id,
                tag,
                description: text.description,
                build_version: text.build_version,
                device_name: text.device_name,
                system_version: text.system_version,
              },
              message: `${tag}: ${text.description.slice(0, 300)}`,
            },
          },
          { tx },
        );
        await this.deps.mails.reportReceived(app, { id: inserted.id, tag, ...text }, tx);
        return inserted;
      });
      return {
        image: `${this.deps.publicUrl}/api/feedback-mobile-data/${row.id}/`,
        timestamp: row.createdAt.toISOString(),
        tag,
        ...text,
      };
    } catch (error) {
      await driver.delete(stored.key).catch(() => undefined);
      throw error;
    }
  }
}

function checkedText(fields: Record<string, string>) {
  const errors: Record<string, string[]> = {};
  const value = (name: keyof typeof textLimits) => {
    const text = (fields[name] ?? "").trim();
    if (text.length > textLimits[name]) {
      errors[name] = [`Ensure this field has no more than ${textLimits[name]} characters.`];
    }
    return text;
  };
  const result = {
    description: value("description"),
    email: value("email"),
    build_version: value("build_version"),
    system_version: value("system_version"),
    device_name: value("device_name"),
    device_uudid: value("device_uudid"),
    navigation_stack: value("navigation_stack"),
  };
  if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  return result;
}

/** The screenshot as the bytes say (never the part's name or header: the iOS SDK's is malformed). */
function checkedImage(bytes: Buffer | undefined) {
  const refuse = (message: string) => AppError.validation({ image: [message] });
  if (!bytes || bytes.length === 0) throw refuse("No screenshot was submitted.");
  const type = detectImageType(bytes);
  if (!type) throw refuse("Upload a PNG, JPEG or WebP screenshot.");
  const size = imageSize(bytes, type);
  if (!size) throw refuse("The screenshot could not be read.");
  if (size.width > maxSide || size.height > maxSide || size.width * size.height > maxPixels) {
    throw refuse(`The screenshot is larger than ${maxSide}×${maxSide} pixels.`);
  }
  return { bytes, type, ...size };
}
