import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as billingPolicy from "../../src/modules/billing/billing.policy.ts";
import * as integrationsPolicy from "../../src/modules/integrations/integrations.policy.ts";
import * as mailServerPolicy from "../../src/modules/mail-server/mail-server.policy.ts";
import * as organizationPolicy from "../../src/modules/organization/organization.policy.ts";
import { allRoles, type PolicySubject } from "../../src/modules/organization/roles.ts";
import * as ssoPolicy from "../../src/modules/sso/sso.policy.ts";
import * as staffPolicy from "../../src/modules/staff/staff.policy.ts";
import * as storagePolicy from "../../src/modules/storage/storage.policy.ts";
import * as storePolicy from "../../src/modules/store/store.policy.ts";
import * as teamPolicy from "../../src/modules/team/team.policy.ts";

type Check = (actor: { role: number }, action: string, subject: PolicySubject) => boolean;

const policies: [string[], Check][] = [
  [organizationPolicy.organizationActions, organizationPolicy.can as Check],
  [staffPolicy.staffActions, staffPolicy.can as Check],
  [teamPolicy.teamActions, teamPolicy.can as Check],
  [storagePolicy.storageActions, storagePolicy.can as Check],
  [mailServerPolicy.mailServerActions, mailServerPolicy.can as Check],
  [integrationsPolicy.integrationActions, integrationsPolicy.can as Check],
  [ssoPolicy.ssoActions, ssoPolicy.can as Check],
  [billingPolicy.billingActions, billingPolicy.can as Check],
  [storePolicy.storeActions, storePolicy.can as Check],
];

/** The rows of the "Implemented" table of docs/permissions.md: action -> five cells. */
function readMatrix(): Map<string, string[]> {
  const text = readFileSync(new URL("../../../../docs/permissions.md", import.meta.url), "utf8");
  const section = text.split("## Implemented")[1]?.split("## Planned")[0] ?? "";
  const rows = new Map<string, string[]>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const [, action, ...roles] = cells;
    if (!action || action === "action" || action.startsWith("---") || roles.length < 5) continue;
    rows.set(action, roles.slice(0, 5));
  }
  return rows;
}

/** Objects a rule can be asked about, for an actor of `role`. */
function subjectsFor(role: number): PolicySubject[] {
  const subjects: PolicySubject[] = [
    { isSelf: true, targetRole: role },
    { isSelf: false, inTeam: true, targetRole: 3 },
    { isSelf: false, inTeam: false, targetRole: 2 },
    { isSelf: false, inTeam: false, targetRole: 5 },
  ];
  if (role !== 1) subjects.push({ isSelf: false, inTeam: false, targetRole: 1 });
  return subjects;
}

function expected(cell: string, subject: PolicySubject, action: string): boolean {
  switch (cell) {
    case "yes":
      return true;
    case "no":
      return false;
    case "own":
      return Boolean(subject.isSelf);
    case "team":
      // Staff: themselves and teammates. Teams: the teams they belong to ("self" means nothing there).
      return Boolean(subject.inTeam || (action.startsWith("staff:") && subject.isSelf));
    case "not owner":
      return subject.targetRole !== 1;
    default:
      throw new Error(`unknown cell "${cell}"`);
  }
}

describe("the permission matrix in docs/permissions.md", () => {
  const matrix = readMatrix();

  it("lists exactly the actions the policies know", () => {
    const known = policies.flatMap(([actions]) => actions).sort();
    expect([...matrix.keys()].sort()).toEqual(known);
  });

  for (const [actions, check] of policies) {
    for (const action of actions) {
      it(`${action} matches the table for roles 1-5`, () => {
        const cells = matrix.get(action);
        expect(cells).toHaveLength(5);
        for (const role of allRoles) {
          const cell = cells?.[role - 1] ?? "";
          for (const subject of subjectsFor(role)) {
            const label = `${action} role ${role} ${JSON.stringify(subject)}`;
            expect(check({ role }, action, subject), label).toBe(expected(cell, subject, action));
          }
        }
      });
    }
  }
});
