// The add-app flow of spec §4: it outlives the modal, so an upload below 100% keeps running
// (shown by the progress widget) when the modal is closed.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { BuildWarning } from "@tarmac/contracts";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import {
  type ApplicationRecord,
  type AppType,
  applicationKeys,
  createApplication,
  discardPreload,
  isTaskAccepted,
} from "../../../api/applications.ts";
import { useDashboard } from "../../../api/dashboard-context.tsx";
import { fetchUsage, planKeys } from "../../../api/plans.ts";
import { isAdminRole } from "../../../api/roles.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { type LimitWayOut, limitWayOut } from "../../../ui/limit-way-out.ts";
import { type AppDraft, buildCreateInput, canAdd, draftFromPreload, EMPTY_DRAFT } from "./draft.ts";
import { atProjectLimit, checkFiles, describeUploadFailure, type UploadMessage } from "./upload-rules.ts";
import { type Preload, usePreload } from "./use-preload.ts";
import { useTaskPolling } from "./use-task-polling.ts";

/** A build just added: the dialog shows its install link in place of the upload form. */
export interface SharedBuild {
  app: ApplicationRecord;
  warnings: BuildWarning[];
}

export interface UploadFlow {
  opened: boolean;
  /** Set once Add succeeded, until the dialog closes. */
  shared: SharedBuild | null;
  /** The app a new version goes to; null for a new app. */
  app: ApplicationRecord | null;
  /** For a new app joining an existing project (another platform or environment): an app of it. */
  projectOf: ApplicationRecord | null;
  organization: number | null;
  organizations: { value: string; label: string }[];
  /** Platform of a .zip for a new app: 2 Windows or 3 macOS. */
  zipType: AppType;
  preload: Preload;
  draft: AppDraft;
  saving: boolean;
  processing: boolean;
  saveError: UploadMessage | null;
  canSave: boolean;
  /** Every project the plan allows exists: a new app can only join one of them. */
  projectLimitReached: boolean;
  /** What lifts the chosen organization's limits here; null until its usage is read. */
  limitWayOut: LimitWayOut | null;
  /** An upload kept running with the modal closed: the progress widget shows it. */
  inBackground: boolean;
  open: (app?: ApplicationRecord | null) => void;
  /** A new app in the project of `sibling`: another platform or environment. */
  openForProject: (sibling: ApplicationRecord) => void;
  close: () => void;
  setOrganization: (organization: number | null) => void;
  setZipType: (type: AppType) => void;
  pickFiles: (files: readonly File[]) => void;
  editDraft: (patch: Partial<AppDraft>) => void;
  save: () => void;
  cancel: () => void;
}

const UploadContext = createContext<UploadFlow | null>(null);

export function UploadProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { orgs, currentOrg, refreshProfile } = useDashboard();
  const [opened, setOpened] = useState(false);
  const [app, setApp] = useState<ApplicationRecord | null>(null);
  const [projectOf, setProjectOf] = useState<ApplicationRecord | null>(null);
  const [draft, setDraft] = useState<AppDraft>(EMPTY_DRAFT);
  const preload = usePreload((result) => setDraft(draftFromPreload(result, app, projectOf)));
  const [organization, setOrganization] = useState<number | null>(null);
  const [zipType, setZipType] = useState<AppType>(2);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<UploadMessage | null>(null);
  const [shared, setShared] = useState<SharedBuild | null>(null);
  // The warnings of the build being added, kept for the share panel after the draft is reset.
  const warningsRef = useRef<BuildWarning[]>([]);
  // A ref, not state: two clicks in one render must not both send (spec: save ignored while saving).
  const savingRef = useRef(false);

  const usage = useQuery({
    queryKey: planKeys.usage(organization ?? 0),
    queryFn: () => fetchUsage(organization ?? 0),
    enabled: opened && organization !== null,
  });
  const orgUsage = usage.data ?? orgs.find((org) => org.org_id === organization) ?? null;
  const projectLimitReached = orgUsage !== null && "projects_limit" in orgUsage && atProjectLimit(orgUsage);

  const resetDraft = useCallback(() => {
    preload.reset();
    setDraft(EMPTY_DRAFT);
    setSaveError(null);
    setSaving(false);
    savingRef.current = false;
  }, [preload.reset]);

  const finish = useCallback(
    (record: ApplicationRecord, isNewApp: boolean) => {
      alerts.show({ type: "success", message: t("FILE UPLOADED SUCCESSFULLY") });
      void queryClient.invalidateQueries({ queryKey: applicationKeys.all() });
      void refreshProfile();
      resetDraft();
      // The dialog stays open on the build's install link, with the new app's page behind it.
      setShared({ app: record, warnings: warningsRef.current });
      if (isNewApp) navigate(`/dashboard/apps/${record.id}`);
    },
    [alerts, t, queryClient, refreshProfile, resetDraft, navigate],
  );

  const polling = useTaskPolling({
    onSuccess: (record) => finish(record, app === null),
    onFailure: (message) => {
      setSaveError(message);
      setSaving(false);
      savingRef.current = false;
    },
  });

  const start = useCallback(
    (target: ApplicationRecord | null, sibling: ApplicationRecord | null) => {
      setOpened(true);
      setShared(null);
      // A flow that kept running in the background is shown again rather than replaced.
      if (preload.phase !== "idle") return;
      polling.stop();
      resetDraft();
      setApp(target);
      setProjectOf(sibling);
      const ownOrg = isAdminRole(currentOrg?.role) ? currentOrg?.org_id : undefined;
      setOrganization(target?.organization ?? sibling?.organization ?? ownOrg ?? null);
    },
    [preload.phase, polling, resetDraft, currentOrg],
  );
  const open = useCallback((target: ApplicationRecord | null = null) => start(target, null), [start]);
  const openForProject = useCallback((sibling: ApplicationRecord) => start(null, sibling), [start]);

  const close = useCallback(() => {
    setOpened(false);
    setShared(null);
    if (preload.phase === "uploading" && preload.progress < 100) {
      if (app && !preload.result) alerts.show({ type: "info", message: t("upload.continues") });
      return;
    }
    polling.stop();
    // An upload closed without Add would hold its space and a build slot for 24 hours.
    if (preload.result && !savingRef.current)
      void discardPreload(preload.result.preload_path).catch(() => {});
    resetDraft();
  }, [preload.phase, preload.progress, preload.result, app, alerts, t, polling, resetDraft]);

  const pickFiles = useCallback(
    (files: readonly File[]) => {
      if (files.length === 0 || saving) return;
      setSaveError(null);
      const hint = app?.app_type ?? zipType;
      // A new app outside any project needs a project slot: refused before a byte is sent.
      const newProject = app === null && projectOf === null;
      const problem = checkFiles(files, { organization, appTypeHint: hint, usage: orgUsage, newProject });
      const file = files[0];
      if (problem || !file || !organization) {
        preload.fail(problem ?? { key: "errors.application" }, files.length === 1 ? file?.name : "");
        return;
      }
      // A new file replaces the one read before, which would otherwise wait 24 hours to expire.
      if (preload.result) void discardPreload(preload.result.preload_path).catch(() => {});
      preload.start({ file, organization, app: app?.id, appType: hint });
    },
    [saving, app, projectOf, zipType, organization, orgUsage, preload.result, preload.fail, preload.start],
  );

  const canSave = preload.result !== null && canAdd(draft, preload.result, app !== null);

  const save = useCallback(() => {
    const result = preload.result;
    if (savingRef.current || !result || !organization || !canSave) return;
    savingRef.current = true;
    warningsRef.current = result.warnings ?? [];
    setSaving(true);
    setSaveError(null);
    const input = buildCreateInput(draft, result, organization, result.app_type, projectOf?.project_app);
    createApplication(input, app?.id).then(
      (reply) => {
        if (isTaskAccepted(reply)) polling.start(reply.task_id);
        else finish(reply, app === null);
      },
      (error: unknown) => {
        savingRef.current = false;
        setSaving(false);
        const message = describeUploadFailure(error);
        if (message) setSaveError(message);
      },
    );
  }, [preload.result, organization, canSave, draft, app, projectOf, polling, finish]);

  const cancel = useCallback(() => {
    polling.stop();
    savingRef.current = false;
    setSaving(false);
    setSaveError(null);
    preload.cancel();
  }, [polling, preload.cancel]);

  const organizations = useMemo(
    () =>
      orgs
        .filter((org) => isAdminRole(org.role) || org.org_id === app?.organization)
        .map((org) => ({ value: String(org.org_id), label: org.title })),
    [orgs, app],
  );

  const flow: UploadFlow = {
    opened,
    shared,
    app,
    projectOf,
    organization,
    organizations,
    zipType,
    preload,
    draft,
    saving,
    processing: polling.active,
    saveError,
    canSave,
    projectLimitReached,
    limitWayOut: limitWayOut(usage.data, t),
    // Any other close resets the flow to idle, so a non-idle flow with the modal closed is one
    // that kept running: it stays visible when it finishes or fails, too.
    inBackground: !opened && preload.phase !== "idle",
    open,
    openForProject,
    close,
    setOrganization,
    setZipType,
    pickFiles,
    editDraft: (patch) => setDraft((current) => ({ ...current, ...patch })),
    save,
    cancel,
  };
  return <UploadContext.Provider value={flow}>{children}</UploadContext.Provider>;
}

export function useUploadFlow(): UploadFlow {
  const context = useContext(UploadContext);
  if (!context) throw new Error("useUploadFlow must be used inside <UploadProvider>");
  return context;
}
