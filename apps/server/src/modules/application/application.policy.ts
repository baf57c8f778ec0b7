import { isAdminRole, roles } from "../organization/roles.ts";

/**
 * What the caller's project membership allows on one app. Admins need none: they see every app
 * of their organization. Other roles see an app only through a project membership that covers
 * the app's environment.
 */
export interface AppAccess {
  /** A project membership exists and covers the app's environment. */
  visible: boolean;
}

type AppRule = (role: number, access: AppAccess) => boolean;

const admins: AppRule = (role) => isAdminRole(role);
const whoSees: AppRule = (role, access) => isAdminRole(role) || access.visible;
// Team managers ship new builds of the apps they look after; they change nothing else.
const uploaders: AppRule = (role, access) =>
  isAdminRole(role) || (role === roles.teamManager && access.visible);

/** Who may do what to apps and their builds; the matrix is written out in docs/permissions.md. */
const rules = {
  "app:read": whoSees,
  "app:create": admins,
  "app:update": admins,
  "app:delete": admins,
  "build:upload": uploaders,
  "build:update": admins,
  "build:delete": admins,
  "build:download": whoSees,
  "app:read-log": whoSees,
  // Testers, their groups, app mails and "send to testers": whoever ships builds of the app.
  "tester:manage": uploaders,
  "project-member:read": uploaders,
  "project-member:manage": admins,
  // Install links hand builds out, which those who ship the builds may decide.
  "distribution:manage": uploaders,
  // Feedback sent from the app: whoever sees the app reads it; those who ship its builds triage.
  "feedback:read": whoSees,
  "feedback:triage": uploaders,
} satisfies Record<string, AppRule>;

export type AppAction = keyof typeof rules;
export const appActions = Object.keys(rules) as AppAction[];

export function canOnApp(role: number, action: AppAction, access: AppAccess): boolean {
  return rules[action](role, access);
}

/** Whether the caller may see the app at all; anything else about an invisible app is a 404. */
export function canSeeApp(role: number, access: AppAccess): boolean {
  return whoSees(role, access);
}

/**
 * Mobile users and testers install builds; they see only finished builds marked ready to sale.
 * Everyone else who sees the app sees every build, including processing and failed ones.
 */
export function seesOnlyReleasedBuilds(role: number): boolean {
  return role === roles.mobileUser || role === roles.tester;
}

export function canSeeBuild(role: number, build: { state: string; readyToSale: boolean }): boolean {
  return !seesOnlyReleasedBuilds(role) || (build.state === "ready" && build.readyToSale);
}
