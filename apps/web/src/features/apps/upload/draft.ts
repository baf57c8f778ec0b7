// The application draft of spec §3 as the add-app form edits it, and the confirm call's body.
import type {
  ApplicationRecord,
  AppType,
  CreateAppRequest,
  PreloadResult,
} from "../../../api/applications.ts";

export interface AppDraft {
  project_title: string;
  title: string;
  new_version: string;
  build_version_number: string;
  environment: string;
  description: string;
  whats_new: string;
  ready_to_sale: boolean;
  /** The user accepted that the build's bundle id replaces the app's. */
  unique_app_id_changed: boolean;
}

export const EMPTY_DRAFT: AppDraft = {
  project_title: "",
  title: "",
  new_version: "",
  build_version_number: "",
  environment: "",
  description: "",
  whats_new: "",
  ready_to_sale: true,
  unique_app_id_changed: false,
};

/**
 * A new app is named after the build; a new version keeps its app's names and environment; a
 * new app in an existing project keeps the project's title.
 */
export function draftFromPreload(
  preload: PreloadResult,
  app: ApplicationRecord | null,
  projectOf: ApplicationRecord | null = null,
): AppDraft {
  const name = preload.name?.trim() || preload.file_name.replace(/\.[^.]+$/, "");
  return {
    ...EMPTY_DRAFT,
    project_title: app?.project_title ?? projectOf?.project_title ?? name,
    title: app?.title ?? name,
    new_version: preload.version,
    build_version_number: preload.build_version_number,
    environment: app?.environment ?? "",
    description: app?.description ?? "",
    ready_to_sale: app?.ready_to_sale ?? true,
  };
}

/**
 * Add needs a preload path, and a project title unless the build goes to an existing app. It is
 * decided from the preload's answer, as the server will decide: a version and build that exist
 * already cannot be added (error 2), and another bundle id needs the user's consent (error 4).
 */
export function canAdd(
  draft: AppDraft,
  preload: Pick<PreloadResult, "preload_path" | "version_exist" | "unique_app_id_changed">,
  existingApp: boolean,
): boolean {
  if (preload.preload_path === "" || (!existingApp && draft.project_title.trim() === "")) return false;
  if (preload.version_exist) return false;
  return !preload.unique_app_id_changed || draft.unique_app_id_changed;
}

function optional(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

export function buildCreateInput(
  draft: AppDraft,
  preload: PreloadResult,
  organization: number,
  appType: AppType,
  projectApp?: number,
): CreateAppRequest {
  return {
    project_app: projectApp,
    project_title: optional(draft.project_title),
    title: optional(draft.title),
    new_version: optional(draft.new_version),
    build_version_number: optional(draft.build_version_number),
    environment: optional(draft.environment),
    description: optional(draft.description),
    whats_new: optional(draft.whats_new),
    organization,
    preload_path: preload.preload_path,
    ready_to_sale: draft.ready_to_sale,
    version_exist: preload.version_exist,
    app_type: appType,
    unique_app_id_changed: preload.unique_app_id_changed ? draft.unique_app_id_changed : undefined,
    unique_app_id_new: preload.unique_app_id_changed ? preload.unique_app_id_new : undefined,
  };
}
