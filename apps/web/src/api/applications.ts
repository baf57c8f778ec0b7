// Applications, their builds (versions), activity log and the two-step upload of spec §4/§7.
import type {
  AppLogEntry,
  ApplicationDetail,
  ApplicationRecord,
  AppType,
  CreateAppRequest,
  ExchangeFileInput,
  MyAppRole,
  Page,
  PreloadResult,
  TaskAccepted,
  UpdateAppInput,
  UpdateVersionInput,
  UploadTaskResult,
  UserSummary,
  Version,
} from "@tarmac/contracts";
import { api } from "./client.ts";
import { resumableUploads } from "./resumable-upload.ts";
import { type UploadHandle, type UploadResult, uploadWithProgress } from "./upload.ts";

export type {
  AppLogEntry,
  ApplicationDetail,
  ApplicationRecord,
  AppType,
  CreateAppRequest,
  MyAppRole,
  PreloadResult,
  TaskAccepted,
  UploadTaskResult,
  UserSummary,
  Version,
};

export const APPS_PAGE_SIZE = 20;

export interface AppListFilter {
  org: number;
  title: string;
  /** null lists every platform. */
  mobileType: AppType | null;
  page: number;
}

/** Every key starts with "apps", so `all()` refreshes lists, details, builds, roles and logs at once. */
export const applicationKeys = {
  all: () => ["apps"] as const,
  list: (filter: AppListFilter) =>
    ["apps", "list", filter.org, filter.page, filter.title, filter.mobileType] as const,
  detail: (id: number) => ["apps", "detail", id] as const,
  builds: (id: number, page: number) => ["apps", "builds", id, page] as const,
  role: (id: number) => ["apps", "role", id] as const,
  logs: (id: number, page: number) => ["apps", "logs", id, page] as const,
};

export function listApplications(filter: AppListFilter) {
  return api.get<Page<ApplicationRecord>>("/api/applications/", {
    query: {
      org: filter.org,
      title: filter.title || undefined,
      mobile_type: filter.mobileType ?? undefined,
      page: filter.page,
      page_size: APPS_PAGE_SIZE,
    },
  });
}

/** With `showenvall` the answer also lists the project's apps of this platform in every environment. */
export function fetchApplication(id: number) {
  return api.get<ApplicationDetail>(`/api/applications/${id}/`, { query: { showenvall: 1 } });
}

export function updateApplication(id: number, input: UpdateAppInput) {
  return api.patch<ApplicationRecord>(`/api/applications/${id}/`, input);
}

/** `allPlatforms` removes every app of the project, not only this platform. */
export function deleteApplication(id: number, allPlatforms: boolean) {
  return api.delete<null>(`/api/applications/${id}/`, { query: { all: allPlatforms ? 1 : undefined } });
}

export function listBuilds(appId: number, page: number) {
  return api.get<Page<Version>>(`/api/applications/${appId}/builds/`, { query: { page } });
}

export function fetchMyAppRole(appId: number) {
  return api.get<MyAppRole>(`/api/applications/${appId}/check_my_role/`);
}

export function listAppLogs(appId: number, page: number) {
  return api.get<Page<AppLogEntry>>(`/api/app-logs/${appId}/`, { query: { page } });
}

export function updateVersion(id: number, input: UpdateVersionInput) {
  return api.patch<Version>(`/api/versions/${id}/`, input);
}

export function deleteVersion(id: number) {
  return api.delete<null>(`/api/versions/${id}/`);
}

export interface PreloadFields {
  file: File;
  organization: number;
  /** The existing app a new version or an exchanged file belongs to. */
  app?: number;
  /** How a .zip is read: 2 Windows or 3 macOS. */
  appType?: AppType;
}

export interface PreloadCallbacks {
  /** A whole percentage of the file's bytes on the server (0–100) and the raw byte counts. */
  onProgress: (percent: number, loaded: number, total: number) => void;
  /** True while the connection is down and the upload waits to resume, false once it goes on. */
  onConnectionLost?: (lost: boolean) => void;
}

/**
 * First step of every upload: the file's bytes go over tus (resumable, see resumable-upload.ts),
 * then the preload names the finished upload in `upload_id`; the server reads it and answers what
 * it found. Abort gives the tus upload up on the server, or stops the preload request.
 */
export function preloadBuild(
  fields: PreloadFields,
  callbacks: PreloadCallbacks,
): UploadHandle<PreloadResult> {
  let abort = () => {};
  let lost = false;
  const connection = (value: boolean) => {
    if (lost === value) return;
    lost = value;
    callbacks.onConnectionLost?.(value);
  };
  const promise = new Promise<UploadResult<PreloadResult>>((resolve, reject) => {
    let finishing: UploadHandle<PreloadResult> | null = null;
    let settled = false;
    const transfer = resumableUploads.start(
      { file: fields.file, organization: fields.organization },
      {
        onProgress: (sent, total) => {
          connection(false);
          // Floored: 100% means every byte is there and the server is reading the build.
          const percent = total > 0 ? Math.floor((sent / total) * 100) : 100;
          callbacks.onProgress(percent, sent, total);
        },
        onRetry: () => connection(true),
        onSuccess: (uploadId) => {
          if (settled) return;
          connection(false);
          callbacks.onProgress(100, fields.file.size, fields.file.size);
          const form = new FormData();
          form.append("organization", String(fields.organization));
          if (fields.app !== undefined) form.append("app", String(fields.app));
          if (fields.appType !== undefined) form.append("app_type", String(fields.appType));
          form.append("upload_id", uploadId);
          finishing = uploadWithProgress<PreloadResult>("/api/applicationadd/", form, {
            query: { preload: 1 },
          });
          finishing.promise.then(resolve, reject);
        },
        onError: (error) => {
          connection(false);
          settled = true;
          reject(error);
        },
      },
    );
    abort = () => {
      if (settled) return;
      settled = true;
      if (finishing) {
        finishing.abort();
        return;
      }
      transfer.terminate();
      reject(new DOMException("Upload aborted", "AbortError"));
    };
  });
  return { promise, abort: () => abort() };
}

/** Drops an upload that will not be added, so its space and build slot are free again at once. */
export function discardPreload(preloadPath: string) {
  return api.delete<null>(`/api/preloads/${encodeURIComponent(preloadPath)}/`);
}

/** 201 with the record, or 202 with a task while an app bundle is converted. */
export type CreateAppReply = ApplicationRecord | TaskAccepted;

export function isTaskAccepted(reply: CreateAppReply): reply is TaskAccepted {
  return "task_id" in reply && !("id" in reply);
}

/** Confirms a preload: a new app, or with `appId` a new version of that app. 201 record or 202 task. */
export function createApplication(input: CreateAppRequest, appId?: number) {
  return api.post<CreateAppReply>("/api/applications/", input, {
    query: { app: appId },
  });
}

export function fetchUploadTask(taskId: string) {
  return api.get<UploadTaskResult>(`/api/upload-task-result/${encodeURIComponent(taskId)}/`);
}

export function exchangeVersionFile(versionId: number, input: ExchangeFileInput) {
  return api.post<Version>(`/api/versions/${versionId}/exchange/`, input);
}
