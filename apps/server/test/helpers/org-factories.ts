import { eq } from "drizzle-orm";
import { insertMembership } from "../../src/modules/organization/membership.repo.ts";
import { insertOrganization } from "../../src/modules/organization/organization.repo.ts";
import { generateSdkKey } from "../../src/modules/organization/organization.service.ts";
import { findPlanByCode } from "../../src/modules/plan/plan.repo.ts";
import { updateUser } from "../../src/modules/users/users.repo.ts";
import { hashPassword } from "../../src/platform/crypto/passwords.ts";
import { createUserWithToken } from "./factories.ts";
import { memberships, projects, teamMembers, teams } from "./tables.ts";
import type { TestApp } from "./test-app.ts";

let sequence = 0;

export type TestUser = Awaited<ReturnType<typeof createUserWithToken>>;

/** An organization with an owner (created unless given); plan "free" unless named. */
export async function createOrganization(
  t: TestApp,
  options: { owner?: TestUser; title?: string; subdomain?: string; plan?: string } = {},
) {
  sequence += 1;
  const owner = options.owner ?? (await createUserWithToken(t));
  const plan = await findPlanByCode(t.database.db, options.plan ?? "free");
  if (!plan) throw new Error(`no plan ${options.plan}`);
  const organization = await insertOrganization(t.database.db, {
    title: options.title ?? `Org ${sequence}`,
    subdomain: options.subdomain ?? `org-${sequence}-${process.pid}`,
    planId: plan.id,
    sdkKey: generateSdkKey(),
  });
  await insertMembership(t.database.db, { organizationId: organization.id, userId: owner.user.id, role: 1 });
  return { organization, owner };
}

/** A user (created unless given) with a membership of `role` in the organization. */
export async function addMember(t: TestApp, organizationId: number, role: number, user?: TestUser) {
  const member = user ?? (await createUserWithToken(t));
  const [row] = await t.database.db
    .insert(memberships)
    .values({ organizationId, userId: member.user.id, role })
    .returning({ id: memberships.id });
  if (!row) throw new Error("membership insert failed");
  return { ...member, membershipId: row.id };
}

export async function membershipIdOf(t: TestApp, organizationId: number, userId: number) {
  const rows = await t.database.db.select().from(memberships).where(eq(memberships.userId, userId));
  const found = rows.find((row) => row.organizationId === organizationId);
  if (!found) throw new Error("no membership");
  return found.id;
}

export async function createTeam(t: TestApp, organizationId: number, userIds: number[] = [], title?: string) {
  sequence += 1;
  const [team] = await t.database.db
    .insert(teams)
    .values({ organizationId, title: title ?? `Team ${sequence}` })
    .returning();
  if (!team) throw new Error("team insert failed");
  if (userIds.length > 0) {
    await t.database.db.insert(teamMembers).values(userIds.map((userId) => ({ teamId: team.id, userId })));
  }
  return team;
}

export async function createProject(t: TestApp, organizationId: number, title = "Project") {
  const [project] = await t.database.db.insert(projects).values({ organizationId, title }).returning();
  if (!project) throw new Error("project insert failed");
  return project;
}

export async function setPassword(t: TestApp, userId: number, password: string) {
  await updateUser(t.database.db, userId, { passwordHash: await hashPassword(password) });
}

export { waitFor } from "./wait-for.ts";
