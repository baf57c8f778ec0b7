import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { makeActivity, makeAdminOrganization } from "../../test/plan-fixtures.ts";
import { describeActivity } from "./activity-text.ts";
import { buildPatch, formFromOrganization, missingLimits } from "./limits.ts";

const t = i18next.t;
const titles: Record<string, string> = { free: "Free", unlimited: "Unlimited" };
const planTitle = (code: string) => titles[code] ?? code;

describe("the plan-and-limits form", () => {
  const organization = makeAdminOrganization({
    plan: { id: 1, code: "free", title: "Free" },
    limits: { space_limit: 500, build_limit: 100, projects_limit: 3, user_limit: 0 },
    overrides: { space_limit: 500, user_limit: 0 },
  });

  it("starts from the organization's own limits, the others the plan's", () => {
    expect(formFromOrganization(organization)).toEqual({
      space_limit: { own: true, value: 500 },
      build_limit: { own: false, value: 100 },
      projects_limit: { own: false, value: 3 },
      user_limit: { own: true, value: 0 },
    });
  });

  it("sends only what changed, null giving a limit back to the plan, and nothing when nothing did", () => {
    const form = formFromOrganization(organization);
    expect(buildPatch(organization, "free", form)).toBeNull();
    // A plan's value taken over as the organization's own is a change too: it no longer follows the plan.
    expect(
      buildPatch(organization, "team", {
        ...form,
        space_limit: { own: false, value: 500 },
        build_limit: { own: true, value: 100 },
      }),
    ).toEqual({ plan: "team", limits: { space_limit: null, build_limit: 100 } });
    expect(buildPatch(organization, "free", { ...form, user_limit: { own: true, value: 7 } })).toEqual({
      limits: { user_limit: 7 },
    });
  });

  it("names own limits left empty", () => {
    const form = formFromOrganization(organization);
    expect(missingLimits({ ...form, projects_limit: { own: true, value: "" } })).toEqual(["projects_limit"]);
    expect(missingLimits({ ...form, projects_limit: { own: false, value: "" } })).toEqual([]);
  });
});

describe("activity entries as sentences", () => {
  it("names plans by title and the administrator who changed them", () => {
    expect(describeActivity(makeActivity(), t, "en", planTitle)).toEqual({
      summary: "Plan changed: Unlimited → Free",
      changes: [],
      who: "by root@tarmac.test",
    });
    const set = makeActivity({ details: { from: null, to: "gold", source: "billing" }, actor: null });
    expect(describeActivity(set, t, "en", planTitle)).toEqual({
      summary: "Plan set to gold",
      changes: [],
      who: "by the billing provider",
    });
  });

  it("lists each limit that changed, from → to, with units and the plan's", () => {
    const entry = makeActivity({
      action: "limits.changed",
      details: {
        from: { space_limit: 500, user_limit: 4 },
        to: { space_limit: 500, projects_limit: 0, build_limit: 10 },
        source: "admin",
      },
      actor: null,
    });
    expect(describeActivity(entry, t, "en", planTitle)).toEqual({
      summary: "Own limits changed:",
      changes: ["Builds: the plan's → 10", "Projects: the plan's → unlimited", "Users: 4 → the plan's"],
      who: "by the system",
    });
    const space = makeActivity({
      action: "limits.changed",
      details: { from: { space_limit: 2048 }, to: {}, source: "admin" },
    });
    expect(describeActivity(space, t, "en", planTitle).changes).toEqual(["Storage: 2 GB → the plan's"]);
    const same = makeActivity({ action: "limits.changed", details: { from: {}, to: {}, source: "admin" } });
    expect(describeActivity(same, t, "en", planTitle).summary).toBe("Limits saved without a change");
  });

  it("reads an action it does not know by its name", () => {
    const entry = makeActivity({ action: "owner.changed", details: {} });
    expect(describeActivity(entry, t, "en", planTitle).summary).toBe("Other change (owner.changed)");
  });
});
