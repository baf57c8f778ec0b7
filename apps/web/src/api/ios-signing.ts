// Re-signing an iOS build with the organization's own identity and profiles (a new version).
import type { IosResignAccepted, IosResignRecord } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { IosResignAccepted, IosResignRecord };

export interface IosResignInput {
  buildId: number;
  p12: File;
  password: string;
  profiles: File[];
  entitlements: File | null;
  /** Old bundle id -> new one; empty keeps every id. */
  bundleIds: Record<string, string>;
}

export const iosSigningKeys = {
  history: (buildId: number) => ["ios-resign", buildId] as const,
};

export function listIosResigns(buildId: number) {
  return api.get<IosResignRecord[]>("/api/app-resign-ios-build/", { query: { build_id: buildId } });
}

export function startIosResign(input: IosResignInput) {
  const form = new FormData();
  form.append("build_id", String(input.buildId));
  form.append("password", input.password);
  form.append("bundle_ids", JSON.stringify(input.bundleIds));
  form.append("file_p12", input.p12);
  for (const profile of input.profiles) form.append("file_pp", profile);
  if (input.entitlements) form.append("file_entitlements", input.entitlements);
  return api.post<IosResignAccepted>("/api/app-resign-ios-build/", form);
}
