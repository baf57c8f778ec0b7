// Install links, the public install page, install counts and device identifiers.
import type {
  CreateDistributionRequest,
  DeviceBuild,
  DistributionInstance,
  DistributionRecord,
  GetappBuild,
  GetappPage,
  GetappPlatform,
  InstallCount,
  Page,
  UdidDevice,
  UdidLookupResult,
  UnlockResult,
  UpdateDistributionInput,
} from "@tarmac/contracts";
import type { ApplicationRecord } from "./applications.ts";
import { api } from "./client.ts";

export type {
  CreateDistributionRequest,
  DeviceBuild,
  DistributionRecord,
  GetappBuild,
  GetappPage,
  GetappPlatform,
  InstallCount,
  UdidDevice,
  UdidLookupResult,
  UpdateDistributionInput,
};

export const distributionKeys = {
  all: () => ["distribution"] as const,
  links: (appId: number) => ["distribution", "links", appId] as const,
  instance: () => ["distribution", "instance"] as const,
  installs: (versionId: number) => ["distribution", "installs", versionId] as const,
  getapp: (key: string, token: string | null) => ["getapp", key, token] as const,
  udidLookup: (udid: string) => ["udid", "lookup", udid] as const,
  mobileApps: (orgId: number, page: number, mobileType: number | null) =>
    ["distribution", "mobile", orgId, page, mobileType] as const,
};

/** An app's links are few: one page of the largest size holds them. */
export async function listDistributions(appId: number) {
  const page = await api.get<Page<DistributionRecord>>("/api/distributions/", {
    query: { app: appId, page_size: 100 },
  });
  return page.results;
}

/** Whether this instance can serve iOS installs (it needs HTTPS), and why not. */
export function fetchDistributionInstance() {
  return api.get<DistributionInstance>("/api/distributions/instance/");
}

export function createDistribution(input: CreateDistributionRequest) {
  return api.post<DistributionRecord>("/api/distributions/", input);
}

export function updateDistribution(id: number, input: UpdateDistributionInput) {
  return api.patch<DistributionRecord>(`/api/distributions/${id}/`, input);
}

export function deleteDistribution(id: number) {
  return api.delete<null>(`/api/distributions/${id}/`);
}

export function fetchVersionInstalls(versionId: number) {
  return api.get<InstallCount[]>(`/api/versions/${versionId}/installs/`);
}

export function permanentLinkPdfUrl(appId: number): string {
  return `/api/applications/${appId}/permanent_link_pdf/`;
}

export function fetchPermanentLinkPdf(appId: number) {
  return api.get<Blob>(permanentLinkPdfUrl(appId), { responseType: "blob" });
}

export function fetchGetapp(key: string, accessToken: string | null) {
  return api.get<GetappPage>(`/api/getapp/${encodeURIComponent(key)}/`, {
    query: { access_token: accessToken ?? undefined },
  });
}

export function unlockGetapp(key: string, password: string) {
  return api.post<UnlockResult>(`/api/getapp/${encodeURIComponent(key)}/unlock/`, { password });
}

export const UDID_PROFILE_URL = "/api/udid/profile/";

export function lookupUdid(udid: string) {
  return api.get<UdidLookupResult>("/api/udid/lookup/", { query: { udid } });
}

export function listMyDevices() {
  return api.get<UdidDevice[]>("/api/udid/devices/");
}

/** The mobile app area's list (spec §7 /api/m/applications/). */
export function listMobileApps(orgId: number, page: number, mobileType: number | null) {
  return api.get<Page<ApplicationRecord>>("/api/m/applications/", {
    query: { org: orgId, page, page_size: MOBILE_PAGE_SIZE, mobile_type: mobileType ?? undefined },
  });
}

export const MOBILE_PAGE_SIZE = 20;

/** The app-level link (version null), which the server creates on first read. */
export async function fetchAppLink(appId: number): Promise<DistributionRecord | null> {
  const links = await listDistributions(appId);
  return links.find((link) => link.version === null) ?? null;
}
