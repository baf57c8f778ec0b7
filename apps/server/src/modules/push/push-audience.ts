/**
 * Who hears of what happens to an app, by the same rules as who may see it (application.policy):
 * owners and admins see every app of their organization; everyone else through a project
 * membership that covers the app's environment. Mobile users and testers see only finished
 * builds marked ready to sale, so they hear only of those.
 */
import type { Database } from "../../platform/db/client.ts";
import { canSeeBuild } from "../application/application.policy.ts";
import type { ApplicationRow, ApplicationService } from "../application/application.service.ts";
import type { ProjectMembershipService } from "../application/project-membership.service.ts";
import type { MembershipService } from "../organization/membership.service.ts";
import { isAdminRole, roles } from "../organization/roles.ts";

export interface Listener {
  userId: number;
  /** The listener's role in the app's organization. */
  role: number;
}

export interface AudienceDeps {
  applications: Pick<ApplicationService, "findApp">;
  membership: Pick<MembershipService, "listUserIdsWithRoles" | "rolesOf">;
  projectMembership: Pick<ProjectMembershipService, "membersOfProject">;
}

export class PushAudience {
  constructor(private readonly deps: AudienceDeps) {}

  findApp(organizationId: number, appId: number, db: Database): Promise<ApplicationRow | null> {
    return this.deps.applications.findApp(organizationId, appId, db);
  }

  /** Everyone in the organization who may see the app, with their organization role. */
  async whoSees(app: ApplicationRow, db: Database): Promise<Listener[]> {
    const admins = await this.deps.membership.listUserIdsWithRoles(
      app.organizationId,
      [roles.owner, roles.admin],
      db,
    );
    const members = await this.deps.projectMembership.membersOfProject(app.projectId, undefined, db);
    const covering = [...members.values()]
      .filter((member) => member.isAccessAllEnvs || member.accessEnvs.includes(app.environment))
      .map((member) => member.userId);
    // A project membership counts only while its holder is in the organization, with the role held there.
    const memberRoles = await this.deps.membership.rolesOf(app.organizationId, covering, db);
    const listeners = new Map<number, Listener>();
    for (const userId of admins) listeners.set(userId, { userId, role: roles.admin });
    for (const [userId, role] of memberRoles) {
      if (!listeners.has(userId)) listeners.set(userId, { userId, role });
    }
    return [...listeners.values()];
  }

  /** Who may install or test this build: those who see the app and, for installers, only released builds. */
  async whoSeesBuild(
    app: ApplicationRow,
    build: { state: string; readyToSale: boolean },
    db: Database,
  ): Promise<Listener[]> {
    return (await this.whoSees(app, db)).filter((listener) => canSeeBuild(listener.role, build));
  }

  /** Who looks after the app's feedback: those who may triage it (admins and team managers who see the app). */
  async whoTriages(app: ApplicationRow, db: Database): Promise<Listener[]> {
    return (await this.whoSees(app, db)).filter(
      (listener) => isAdminRole(listener.role) || listener.role === roles.teamManager,
    );
  }
}
