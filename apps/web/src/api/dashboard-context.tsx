// What every dashboard screen needs: the profile, its organizations and the current one.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { accountKeys, fetchProfile, type OrgData, type Profile } from "./account.ts";
import { notifyLimitCritical } from "./organizations.ts";
import { isPlanCritical, isStorageWarning } from "./plan-limits.ts";
import { ROLE_OWNER } from "./roles.ts";
import { CURRENT_ORG_ID_KEY } from "./token.ts";

export interface DashboardState {
  profile: Profile | null;
  /** Kept for screens that need it; the menu itself shows no message for it (spec §4). */
  profileError: unknown;
  profileLoading: boolean;
  orgs: OrgData[];
  currentOrg: OrgData | null;
  storageWarning: boolean;
  selectOrg: (orgId: number) => void;
  refreshProfile: () => Promise<void>;
}

const DashboardContext = createContext<DashboardState | null>(null);

function readStoredOrgId(): number | null {
  const stored = Number(localStorage.getItem(CURRENT_ORG_ID_KEY));
  return Number.isInteger(stored) && stored > 0 ? stored : null;
}

export function pickCurrentOrg(orgs: OrgData[], wantedId: number | null): OrgData | null {
  return orgs.find((org) => org.org_id === wantedId) ?? orgs[0] ?? null;
}

export function DashboardProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const profileQuery = useQuery({ queryKey: accountKeys.profile(), queryFn: fetchProfile });
  const [wantedOrgId, setWantedOrgId] = useState(readStoredOrgId);
  const profile = profileQuery.data ?? null;
  const orgs = useMemo(() => profile?.org_data ?? [], [profile]);
  const currentOrg = pickCurrentOrg(orgs, wantedOrgId);

  // Remember the organization actually shown, also when it fell back to the first one.
  useEffect(() => {
    if (currentOrg) localStorage.setItem(CURRENT_ORG_ID_KEY, String(currentOrg.org_id));
  }, [currentOrg]);

  const storageWarning = currentOrg ? isStorageWarning(currentOrg) : false;

  // Recomputed on every profile load: members other than the owner make the server tell the
  // owner about a critical limit (the server sends at most one notice a day).
  const loadedAt = profileQuery.dataUpdatedAt;
  const notifyOrgId =
    currentOrg && currentOrg.role !== ROLE_OWNER && isPlanCritical(currentOrg) ? currentOrg.org_id : null;
  useEffect(() => {
    if (notifyOrgId === null || loadedAt === 0) return;
    notifyLimitCritical(notifyOrgId).catch(() => {});
  }, [notifyOrgId, loadedAt]);

  const selectOrg = useCallback((orgId: number) => {
    localStorage.setItem(CURRENT_ORG_ID_KEY, String(orgId));
    setWantedOrgId(orgId);
  }, []);

  const refreshProfile = useCallback(
    () => queryClient.invalidateQueries({ queryKey: accountKeys.profile() }),
    [queryClient],
  );

  const state: DashboardState = {
    profile,
    profileError: profileQuery.error,
    profileLoading: profileQuery.isPending,
    orgs,
    currentOrg,
    storageWarning,
    selectOrg,
    refreshProfile,
  };
  return <DashboardContext.Provider value={state}>{children}</DashboardContext.Provider>;
}

export function useDashboard(): DashboardState {
  const context = useContext(DashboardContext);
  if (!context) throw new Error("useDashboard must be used inside <DashboardProvider>");
  return context;
}
