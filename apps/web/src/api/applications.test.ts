import { beforeEach, describe, expect, it, vi } from "vitest";
import { makeApp } from "../test/application-fixtures.ts";
import { stubApi } from "../test/render.tsx";
import { createApplication, deleteApplication, isTaskAccepted, listApplications } from "./applications.ts";
import { fetchProjects } from "./projects.ts";

describe("applications api", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("lists with the filters the spec names and leaves out empty ones", async () => {
    const calls = stubApi({});
    await listApplications({ org: 7, title: "", mobileType: null, page: 2 }).catch(() => {});
    await listApplications({ org: 7, title: "ro", mobileType: 0, page: 1 }).catch(() => {});
    await deleteApplication(3, true).catch(() => {});
    await deleteApplication(3, false).catch(() => {});
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET /api/applications/?org=7&page=2&page_size=20",
      "GET /api/applications/?org=7&title=ro&mobile_type=0&page=1&page_size=20",
      "DELETE /api/applications/3/?all=1",
      "DELETE /api/applications/3/",
    ]);
  });

  it("tells a 202 task from a 201 record", async () => {
    stubApi({ "POST /api/applications/?app=4": { status: 202, body: { task_id: "t" } } });
    expect(
      isTaskAccepted(await createApplication({ organization: 7, preload_path: "p", ready_to_sale: true }, 4)),
    ).toBe(true);
    expect(isTaskAccepted(makeApp())).toBe(false);
  });

  it("reads each project once from the organization's apps for the member dialogs", async () => {
    stubApi({
      "GET /api/applications/?org=7&page_size=100": {
        status: 200,
        body: {
          count: 3,
          next: null,
          previous: null,
          results: [
            makeApp({ id: 1, project_app: 9, project_title: "Rocket" }),
            makeApp({ id: 2, project_app: 9, project_title: "Rocket", app_type: 1 }),
            makeApp({ id: 3, project_app: 10, project_title: "Comet" }),
          ],
        },
      },
    });
    expect(await fetchProjects(7)).toEqual([
      { id: 9, project_title: "Rocket" },
      { id: 10, project_title: "Comet" },
    ]);
  });
});
