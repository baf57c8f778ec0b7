import type { sdkFeedbackEnabled, sdkVersionCheckResult } from "@tarmac/contracts";
import type { z } from "zod";
import { AppError } from "../../http/errors.ts";
import type { ApplicationRow } from "../application/application.service.ts";
import type { BuildRecordService } from "../application/build-record.service.ts";
import type { ReleaseService } from "../application/release.service.ts";
import type { OrganizationService } from "../organization/organization.service.ts";
import { compareDotted } from "../upload/version-order.ts";
import { appOfSdkKeys } from "./sdk-keys.ts";

type VersionCheck = z.infer<typeof sdkVersionCheckResult>;
type FeedbackEnabled = z.infer<typeof sdkFeedbackEnabled>;

/** Wrong keys: a 404 the SDKs log ("unsuccessful response"), never more about which key is wrong. */
export function unknownKeys(): AppError {
  return AppError.notFound("Unknown app_key or sdk_key.");
}

/**
 * The update half of the SDK protocol: is there a newer build than the one installed, and where
 * does the phone install it. "Newer" compares the installed build number (Android's versionCode,
 * iOS's CFBundleVersion) with the newest released build of the same app and environment.
 */
export class SdkService {
  constructor(
    private readonly deps: {
      builds: BuildRecordService;
      releases: ReleaseService;
      organizations: OrganizationService;
      installPage: (app: { id: number; organizationId: number }) => Promise<string>;
    },
  ) {}

  private async app(keys: { sdk_key?: string | null; app_key?: string | null }): Promise<ApplicationRow> {
    const app = await appOfSdkKeys(this.deps, keys);
    if (!app) throw unknownKeys();
    return app;
  }

  async checkLastVersion(input: {
    sdk_key?: string | null;
    app_key?: string | null;
    version?: string | null;
  }): Promise<VersionCheck> {
    const app = await this.app(input);
    const installed = (input.version ?? "").trim();
    const newest = (
      await this.deps.releases.newestReleasedPerApp(app.organizationId, app.projectId, app.environment)
    ).find((entry) => entry.app.id === app.id)?.version;
    const isNewer = Boolean(newest && installed && compareDotted(newest.buildNumber, installed) > 0);
    return {
      create_at: newest ? newest.createdAt.toISOString() : "",
      whats_new: newest?.whatsNew ?? "",
      version: newest ? newest.version : null,
      your_version: installed,
      is_new_version: isNewer,
      is_autoupdate_enabled: app.autoUpdateEnabled,
    };
  }

  async getLastVersion(input: {
    sdk_key?: string | null;
    app_key?: string | null;
  }): Promise<{ update_url: string }> {
    const app = await this.app(input);
    return { update_url: await this.deps.installPage(app) };
  }

  /**
   * Whether the app takes feedback. Wrong keys answer 200 with the error lists the Android SDK
   * reads (it then shows the description in its log) and `is_feedback_enabled: false`, which the
   * iOS SDK reads.
   */
  async feedbackEnabled(input: {
    sdk_key?: string | null;
    app_key?: string | null;
  }): Promise<FeedbackEnabled> {
    const app = await appOfSdkKeys(this.deps, input);
    if (!app) {
      return {
        is_feedback_enabled: false,
        error_code: ["invalid_keys"],
        error_description: ["Unknown app_key or sdk_key."],
      };
    }
    return { is_feedback_enabled: app.feedbackEnabled, error_code: [], error_description: [] };
  }
}
