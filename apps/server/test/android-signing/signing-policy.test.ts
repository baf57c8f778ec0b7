import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canSign, signingActions } from "../../src/modules/android-signing/android-signing.policy.ts";
import { allRoles } from "../../src/modules/organization/roles.ts";

/** The rows of "Android signing" in docs/permissions.md. */
function readMatrix(): Map<string, string[]> {
  const text = readFileSync(new URL("../../../../docs/permissions.md", import.meta.url), "utf8");
  const section = text.split("## Android signing")[1]?.split("\n## ")[0] ?? "";
  const rows = new Map<string, string[]>();
  for (const line of section.split("\n")) {
    const [, action, ...roles] = line.split("|").map((cell) => cell.trim());
    if (!action || action === "action" || action.startsWith("---") || roles.length < 5) continue;
    rows.set(action, roles.slice(0, 5));
  }
  return rows;
}

/** [without a covering project membership, with one]. */
const cellMeaning: Record<string, [boolean, boolean]> = {
  yes: [true, true],
  no: [false, false],
  project: [false, true],
};

describe("the Android signing rows of docs/permissions.md", () => {
  const matrix = readMatrix();

  it("lists exactly the actions of the policy", () => {
    expect([...matrix.keys()].sort()).toEqual([...signingActions].sort());
  });

  for (const action of signingActions) {
    it(`${action} matches the table for roles 1-5`, () => {
      const cells = matrix.get(action) ?? [];
      for (const role of allRoles) {
        const meaning = cellMeaning[cells[role - 1] ?? ""];
        expect(meaning, `${action} role ${role}: unknown cell`).toBeDefined();
        const [hidden, visible] = meaning as [boolean, boolean];
        expect(canSign(role, action, { visible: false }), `${action} role ${role} outside`).toBe(hidden);
        expect(canSign(role, action, { visible: true }), `${action} role ${role} in project`).toBe(visible);
      }
    });
  }
});
