import type { AppAction } from "../application/application.policy.ts";

/** Re-signing makes a new build, so it needs what uploading one needs; reading the history, seeing the app. */
export const resignActions = { start: "build:upload", read: "app:read" } as const satisfies Record<
  string,
  AppAction
>;

const iosAppType = 1;

/** Only IPA builds of iOS apps carry what re-signing replaces. */
export function canResignBuild(build: { appType: number; fileType: unknown; state: string }): boolean {
  return build.appType === iosAppType && build.fileType === "ipa" && build.state === "ready";
}
