import { describe, expect, it } from "vitest";
import { appActions, canOnApp } from "../../src/modules/application/application.policy.ts";

// role -> [not visible, visible] for each action; 1/2 need no project membership.
const table: Record<string, Record<number, [boolean, boolean]>> = {
  "app:read": { 1: [true, true], 2: [true, true], 3: [false, true], 4: [false, true], 5: [false, true] },
  "app:create": { 1: [true, true], 2: [true, true], 3: [false, false], 4: [false, false], 5: [false, false] },
  "app:update": { 1: [true, true], 2: [true, true], 3: [false, false], 4: [false, false], 5: [false, false] },
  "app:delete": { 1: [true, true], 2: [true, true], 3: [false, false], 4: [false, false], 5: [false, false] },
  "build:upload": {
    1: [true, true],
    2: [true, true],
    3: [false, false],
    4: [false, true],
    5: [false, false],
  },
  "build:update": {
    1: [true, true],
    2: [true, true],
    3: [false, false],
    4: [false, false],
    5: [false, false],
  },
  "build:delete": {
    1: [true, true],
    2: [true, true],
    3: [false, false],
    4: [false, false],
    5: [false, false],
  },
  "build:download": {
    1: [true, true],
    2: [true, true],
    3: [false, true],
    4: [false, true],
    5: [false, true],
  },
  "app:read-log": { 1: [true, true], 2: [true, true], 3: [false, true], 4: [false, true], 5: [false, true] },
};

describe("canOnApp", () => {
  it("knows exactly the actions of the table", () => {
    expect([...appActions].sort()).toEqual(Object.keys(table).sort());
  });

  for (const [action, byRole] of Object.entries(table)) {
    it(`${action} follows the table`, () => {
      for (const [role, [hidden, visible]] of Object.entries(byRole)) {
        const check = (isVisible: boolean) => canOnApp(Number(role), action as never, { visible: isVisible });
        expect(check(false), `${action} role ${role} not visible`).toBe(hidden);
        expect(check(true), `${action} role ${role} visible`).toBe(visible);
      }
    });
  }
});
