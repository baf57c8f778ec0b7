import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setLimits, uploadNewApp } from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { iosResigns, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { makeResignFixtures, type ResignFixtures } from "./fixtures.ts";

let t: TestApp;
let fx: ResignFixtures;
beforeAll(async () => {
  fx = makeResignFixtures();
  t = await createTestApp();
  await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
}, 90_000);
afterAll(async () => {
  await t.close();
});

type Part = [field: string, value: string] | [field: string, file: Buffer, name: string];

function form(parts: Part[]) {
  const boundary = `----tarmac${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const [field, value, name] of parts) {
    const disposition = name ? `; filename="${name}"` : "";
    const type = name ? "Content-Type: application/octet-stream\r\n" : "";
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"${disposition}\r\n${type}\r\n`,
      ),
    );
    chunks.push(typeof value === "string" ? Buffer.from(value) : value, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

function resignParts(
  buildId: number,
  overrides: { password?: string; profiles?: string[]; bundleIds?: string } = {},
): Part[] {
  return [
    ["build_id", String(buildId)],
    ["password", overrides.password ?? fx.password],
    ["file_p12", fx.bytes("signer.p12"), "signer.p12"],
    ...(overrides.profiles ?? ["app", "widget"]).map(
      (name): Part => ["file_pp", fx.bytes(`${name}.mobileprovision`), `${name}.mobileprovision`],
    ),
    ...(overrides.bundleIds ? [["bundle_ids", overrides.bundleIds] as Part] : []),
  ];
}

async function postResign(token: string, parts: Part[]) {
  const body = form(parts);
  return t.app.inject({
    method: "POST",
    url: "/api/app-resign-ios-build/",
    payload: body.payload,
    headers: { ...body.headers, ...authHeader(token) },
  });
}

async function pollTask(token: string, taskId: string) {
  let body: Record<string, unknown> = {};
  await waitFor(async () => {
    const response = await t.app.inject({
      method: "GET",
      url: `/api/upload-task-result/${taskId}/`,
      headers: authHeader(token),
    });
    body = response.json();
    return body.state === "SUCCESS" || body.state === "FAILURE" ? true : undefined;
  }, 60_000);
  return body;
}

async function iosApp() {
  const { organization, owner } = await createOrganization(t);
  const app = await uploadNewApp(t, owner.token, organization.id, {
    name: "Demo.ipa",
    content: readFileSync(fx.ipa),
  });
  const [build] = await t.database.db.select().from(versions).where(eq(versions.applicationId, app.id));
  if (!build) throw new Error("no version");
  return { organization, owner, app, build };
}

describe("POST /api/app-resign-ios-build/", () => {
  it("re-signs in a task and adds the result as a new version, inspected like an upload", async () => {
    const { owner, app, build } = await iosApp();
    const response = await postResign(
      owner.token,
      resignParts(build.id, { profiles: ["wildcard"], bundleIds: '{"com.tarmac.demo": "com.acme.demo"}' }),
    );
    expect(response.statusCode, response.body).toBe(202);
    const { task_id: taskId } = response.json();
    const task = await pollTask(owner.token, taskId);
    expect(task).toMatchObject({ state: "SUCCESS", error_code: null });
    expect((task.result as { id: number }).id).toBe(app.id);

    const all = await t.database.db.select().from(versions).where(eq(versions.applicationId, app.id));
    const resigned = all.find((row) => row.id !== build.id);
    expect(resigned).toMatchObject({
      version: "1.4.0",
      buildNumber: "140.r1",
      bundleId: "com.acme.demo",
      fileName: "Demo-resigned.ipa",
      state: "ready",
    });
    expect(JSON.stringify(resigned?.buildInfo)).toContain("Tarmac wildcard");
    // Listed with the app's builds like any upload, with its download link.
    const builds = await t.app.inject({
      method: "GET",
      url: `/api/applications/${app.id}/builds/?page=1`,
      headers: authHeader(owner.token),
    });
    const listedBuild = builds.json().results.find((row: { id: number }) => row.id === resigned?.id);
    expect(listedBuild).toMatchObject({ build_version_number: "140.r1", state: "ready" });
    expect(listedBuild.download_url).toEqual(expect.any(String));

    const listed = await t.app.inject({
      method: "GET",
      url: `/api/app-resign-ios-build/?build_id=${build.id}`,
      headers: authHeader(owner.token),
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      expect.objectContaining({
        task_id: taskId,
        state: "SUCCESS",
        result_build_id: resigned?.id,
        bundle_ids: { "com.tarmac.demo": "com.acme.demo" },
        certificate_subject: expect.stringContaining("CN=Apple Distribution: Tarmac Fixtures (TEAMA12345)"),
      }),
    ]);
    // Nothing of the p12 or its password is kept once the task has run.
    const [row] = await t.database.db.select().from(iosResigns).where(eq(iosResigns.taskId, taskId));
    expect(row?.sealedMaterial).toBeNull();
    expect(listed.body).not.toContain(fx.password);
  });

  it("numbers repeated re-signings .r1, .r2 and ends the task with the plan's error when the build limit is reached", async () => {
    const { organization, owner, app, build } = await iosApp();
    await setLimits(t, organization.id, { buildLimit: 3 });
    const outcomes: Array<Record<string, unknown>> = [];
    for (let round = 0; round < 3; round += 1) {
      const started = await postResign(owner.token, resignParts(build.id));
      expect(started.statusCode, started.body).toBe(202);
      outcomes.push(await pollTask(owner.token, started.json().task_id));
    }
    expect(outcomes.map((task) => [task.state, task.error_code])).toEqual([
      ["SUCCESS", null],
      ["SUCCESS", null],
      ["FAILURE", 7],
    ]);
    const numbers = (await t.database.db.select().from(versions).where(eq(versions.applicationId, app.id)))
      .map((row) => row.buildNumber)
      .sort();
    expect(numbers).toEqual(["140", "140.r1", "140.r2"]);
    const rows = await t.database.db.select().from(iosResigns).where(eq(iosResigns.versionId, build.id));
    expect(rows.every((row) => row.sealedMaterial === null)).toBe(true);
  });

  it("answers error 8 with what to fix before anything is queued", async () => {
    const { owner, build } = await iosApp();
    const cases: Array<[Part[], string]> = [
      [resignParts(build.id, { password: "wrong" }), "The p12 password is wrong."],
      [
        resignParts(build.id, { profiles: ["app"] }),
        "No provisioning profile matches the bundle id com.tarmac.demo.widget (Demo.app/PlugIns/Widget.appex).",
      ],
      [
        resignParts(build.id, { profiles: ["expired", "widget"] }),
        'The provisioning profile "Tarmac expired" expired on 2024-06-01T00:00:00.000Z.',
      ],
      [
        resignParts(build.id, { profiles: ["old-certificate", "widget"] }),
        `The p12's certificate is not one of the developer certificates of the provisioning profile "Tarmac old-certificate".`,
      ],
    ];
    for (const [parts, detail] of cases) {
      const response = await postResign(owner.token, parts);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error_code: 8, detail });
    }
    expect(await t.database.db.select().from(iosResigns).where(eq(iosResigns.versionId, build.id))).toEqual(
      [],
    );
  });

  it("names each missing or malformed field", async () => {
    const { owner, build } = await iosApp();
    const response = await postResign(owner.token, [
      ["build_id", "x"],
      ["bundle_ids", "{not json"],
    ]);
    expect(response.statusCode).toBe(400);
    const missing = await postResign(owner.token, [["build_id", String(build.id)]]);
    expect(missing.json()).toEqual({
      file_p12: ["Send exactly one .p12 file."],
      file_pp: ["Send at least one provisioning profile."],
    });
  });

  it("hides another organization's builds and tasks, and refuses testers", async () => {
    const victim = await iosApp();
    const response = await postResign(victim.owner.token, resignParts(victim.build.id));
    const { task_id: taskId } = response.json();
    await pollTask(victim.owner.token, taskId);
    const { owner: attacker } = await createOrganization(t);
    const attempt = await postResign(attacker.token, resignParts(victim.build.id));
    expect(attempt.statusCode).toBe(404);
    const list = await t.app.inject({
      method: "GET",
      url: `/api/app-resign-ios-build/?build_id=${victim.build.id}`,
      headers: authHeader(attacker.token),
    });
    expect(list.statusCode).toBe(404);
    const task = await t.app.inject({
      method: "GET",
      url: `/api/upload-task-result/${taskId}/`,
      headers: authHeader(attacker.token),
    });
    expect(task.statusCode).toBe(404);
    const tester = await addMember(t, victim.organization.id, 5);
    expect((await postResign(tester.token, resignParts(victim.build.id))).statusCode).toBe(404);
    const unauthenticated = await t.app.inject({
      method: "GET",
      url: `/api/app-resign-ios-build/?build_id=${victim.build.id}`,
    });
    expect(unauthenticated.statusCode).toBe(401);
  });
});
