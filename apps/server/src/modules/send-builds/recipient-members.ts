import { canSeeApp } from "../application/application.policy.ts";
import type { ApplicationRow } from "../application/application.service.ts";
import { coversEnvironment } from "../application/application.service.ts";
import type { ProjectMembershipService } from "../application/project-membership.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";

export interface RecipientMember {
  userId: number;
  email: string;
  firstName: string;
  lastName: string;
  role: number;
}

/** Members of the organization who may read an app: the people builds can be sent to. */
export class RecipientMembers {
  constructor(
    private readonly deps: {
      membership: Pick<MembershipService, "listMembers">;
      projectMembership: Pick<ProjectMembershipService, "membersOfProject">;
    },
  ) {}

  /** Alphabetical by address; `userIds` narrows to those people (unknown ones are left out). */
  async readersOf(app: ApplicationRow, userIds?: number[]): Promise<RecipientMember[]> {
    if (userIds && userIds.length === 0) return [];
    const { rows } = await this.deps.membership.listMembers(app.organizationId, {
      ...(userIds ? { onlyUserIds: [...new Set(userIds)] } : {}),
      order: "email",
    });
    const projectAccess = await this.deps.projectMembership.membersOfProject(
      app.projectId,
      rows.map((row) => row.userId),
    );
    return rows
      .filter((row) => {
        const access = projectAccess.get(row.userId) ?? null;
        return canSeeApp(row.role, { visible: coversEnvironment(access, app.environment) });
      })
      .map((row) => ({
        userId: row.userId,
        email: row.email,
        firstName: row.firstName,
        lastName: row.lastName,
        role: row.role,
      }));
  }
}
