import { asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../platform/db/client.ts";
import {
  authTokens,
  dataExports,
  loginThrottle,
  mailOutbox,
  memberships,
  organizations,
  projectMembers,
  projects,
  recoveryCodes,
  teamMembers,
  teams,
  userCodes,
} from "../../platform/db/schema/index.ts";

/** Read-only queries behind a personal data export; every one is filtered by the user (or their address). */

export async function selectMemberships(db: Database, userId: number) {
  return db
    .select({
      organizationId: organizations.id,
      organizationTitle: organizations.title,
      subdomain: organizations.subdomain,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.id));
}

export async function selectTeamMemberships(db: Database, userId: number) {
  return db
    .select({
      teamId: teams.id,
      teamTitle: teams.title,
      organizationId: organizations.id,
      organizationTitle: organizations.title,
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .innerJoin(organizations, eq(organizations.id, teams.organizationId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teams.id));
}

export async function selectProjectMemberships(db: Database, userId: number) {
  return db
    .select({
      projectId: projects.id,
      projectTitle: projects.title,
      organizationId: organizations.id,
      organizationTitle: organizations.title,
      role: projectMembers.role,
      isAccessAllEnvs: projectMembers.isAccessAllEnvs,
      accessEnvs: projectMembers.accessEnvs,
      joinedAt: projectMembers.createdAt,
    })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .innerJoin(organizations, eq(organizations.id, projects.organizationId))
    .where(eq(projectMembers.userId, userId))
    .orderBy(asc(projectMembers.id));
}

/** Token metadata only: the hashes never leave the database. */
export async function selectTokenMetadata(db: Database, userId: number) {
  return db
    .select({
      kind: authTokens.kind,
      createdAt: authTokens.createdAt,
      lastUsedAt: authTokens.lastUsedAt,
      expiresAt: authTokens.expiresAt,
      revokedAt: authTokens.revokedAt,
    })
    .from(authTokens)
    .where(eq(authTokens.userId, userId))
    .orderBy(asc(authTokens.id));
}

export async function selectRecoveryCodeStates(db: Database, userId: number) {
  return db
    .select({ usedAt: recoveryCodes.usedAt })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.userId, userId));
}

/** E-mailed codes (activation, reset, invitation) without their hashes. */
export async function selectCodeMetadata(db: Database, userId: number) {
  return db
    .select({
      kind: userCodes.kind,
      createdAt: userCodes.createdAt,
      expiresAt: userCodes.expiresAt,
      usedAt: userCodes.usedAt,
    })
    .from(userCodes)
    .where(eq(userCodes.userId, userId))
    .orderBy(asc(userCodes.id));
}

export async function selectThrottleEntries(db: Database, keys: string[]) {
  return db
    .select()
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, keys))
    .orderBy(asc(loginThrottle.key));
}

export async function selectExportHistory(db: Database, userId: number) {
  return db
    .select({
      id: dataExports.id,
      status: dataExports.status,
      createdAt: dataExports.createdAt,
      completedAt: dataExports.completedAt,
      size: dataExports.size,
    })
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(asc(dataExports.id));
}

export async function selectMailTo(db: Database, address: string) {
  return db
    .select({
      subject: mailOutbox.subject,
      text: mailOutbox.textBody,
      html: mailOutbox.htmlBody,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, address))
    .orderBy(asc(mailOutbox.id));
}
