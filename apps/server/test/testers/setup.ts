import { addProjectMember, createApp } from "../helpers/app-factories.ts";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import type { TestApp } from "../helpers/test-app.ts";

/**
 * One organization with an app and a member of every kind: owner, admin, team manager and mobile
 * user on the app's project, a team manager outside it, and an owner of another organization.
 */
export async function seedTesterWorld(t: TestApp) {
  const { organization, owner } = await createOrganization(t, { title: "Acme Labs" });
  const app = await createApp(t, organization.id, { title: "Rocket", appType: 0 });
  const admin = await addMember(t, organization.id, 2);
  const manager = await addMember(t, organization.id, 4);
  await addProjectMember(t, app.projectId, manager.user.id, { role: 4 });
  const mobile = await addMember(t, organization.id, 3);
  await addProjectMember(t, app.projectId, mobile.user.id, { role: 3 });
  const outsider = await addMember(t, organization.id, 4);
  const stranger = await createOrganization(t);
  const strangerApp = await createApp(t, stranger.organization.id, { title: "Other" });
  return { organization, owner, app, admin, manager, mobile, outsider, stranger, strangerApp };
}

export function as(user: { token: string }) {
  return authHeader(user.token);
}

export { createUserWithToken };
