import { isAdminRole, roles } from "../organization/roles.ts";

/** What the caller can see of one app, as the application module decided it. */
export interface SigningSubject {
  /** A project membership covers the app's environment (admins see every app). */
  visible: boolean;
}

type SigningRule = (role: number, subject: SigningSubject) => boolean;

const admins: SigningRule = (role) => isAdminRole(role);
// Those who ship the app's builds may sign them and see which key will be used.
const shippers: SigningRule = (role, subject) =>
  isAdminRole(role) || (role === roles.teamManager && subject.visible);

/** Who may do what with Android signing keys; written out in docs/permissions.md. */
const rules = {
  "keystore:read": shippers,
  "keystore:replace": admins,
  "organization-keystore:read": admins,
  "organization-keystore:replace": admins,
  "build:sign": shippers,
} satisfies Record<string, SigningRule>;

export type SigningAction = keyof typeof rules;
export const signingActions = Object.keys(rules) as SigningAction[];

export function canSign(role: number, action: SigningAction, subject: SigningSubject): boolean {
  return rules[action](role, subject);
}
