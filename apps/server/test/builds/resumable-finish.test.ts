/** Resumable uploads: who may use one, finishing through the preload and the CI upload, limits, a real client. */
import type net from "node:net";
import { uploadErrorDetails } from "@tarmac/contracts";
import { eq } from "drizzle-orm";
import { Upload } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cuttingProxy } from "../helpers/cutting-proxy.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { tusUploads, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import {
  createUpload,
  downloadedSha,
  finishAsNewApp,
  finishByPreload,
  idOf,
  image,
  partBytes,
  resumableClient,
  sha256,
  tus,
} from "./resumable-helpers.ts";
import { dmg, preload, setLimits, setUsage } from "./upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_RESUMABLE_PART_BYTES: String(partBytes) });
});
afterAll(async () => {
  await t.close();
});

const { started, patch, head, ciUpload, storedParts, appKeyOf } = resumableClient(() => t);

describe("finishing and guarding resumable uploads", () => {
  it("keeps uploads to their creators: others get 404 and cannot finish them", async () => {
    const first = await createOrganization(t);
    const second = await createOrganization(t);
    const colleague = await addMember(t, first.organization.id, 2);
    // Two people upload at the same time.
    const [mine, theirs] = await Promise.all([
      started(first.owner.token, first.organization.id),
      started(second.owner.token, second.organization.id),
    ]);
    const halves = await Promise.all([
      patch(first.owner.token, mine, 0, image.subarray(0, 200_000)),
      patch(second.owner.token, theirs, 0, image.subarray(0, 300_000)),
    ]);
    expect(halves.map((answer) => answer.headers["upload-offset"])).toEqual(["200000", "300000"]);
    await Promise.all([
      patch(first.owner.token, mine, 200_000, image.subarray(200_000)),
      patch(second.owner.token, theirs, 300_000, image.subarray(300_000)),
    ]);

    for (const stranger of [second.owner.token, colleague.token]) {
      expect((await head(stranger, mine)).statusCode).toBe(404);
      expect((await patch(stranger, mine, image.length, Buffer.alloc(0))).statusCode).toBe(404);
      const deleted = await t.app.inject({
        method: "DELETE",
        url: mine,
        headers: { ...tus, ...authHeader(stranger) },
      });
      expect(deleted.statusCode).toBe(404);
    }
    // Finishing someone else's upload: in their organization, or in one's own.
    const foreign = await finishByPreload(t, second.owner.token, {
      organization: first.organization.id,
      upload_id: idOf(mine),
    });
    expect(foreign.statusCode).toBe(404);
    const intoOwn = await finishByPreload(t, second.owner.token, {
      organization: second.organization.id,
      upload_id: idOf(mine),
    });
    expect(intoOwn.statusCode).toBe(404);
    // The creator cannot carry it into another organization either, and keeps it.
    const elsewhere = await finishByPreload(t, first.owner.token, {
      organization: second.organization.id,
      upload_id: idOf(mine),
    });
    expect(elsewhere.statusCode).toBe(404);
    const ownApp = await finishAsNewApp(t, second.owner.token, second.organization.id, theirs);
    const [app] = await t.database.db.select().from(versions).where(eq(versions.applicationId, ownApp));
    expect(app?.sha256).toBe(sha256(image));
    const apiKey = await t.services.tokens.issueApiKey(second.owner.user.id);
    const { appKey } = await appKeyOf(second.owner.token, ownApp);
    const viaCi = await ciUpload(appKey, apiKey, { upload_id: idOf(mine) });
    expect(viaCi.statusCode).toBe(404);
    const status = await head(first.owner.token, mine);
    expect(status.statusCode).toBe(200);
    expect(status.headers["upload-offset"]).toBe(String(image.length));
  });

  it("finishes a CI upload with upload_id, answering as a plain CI upload", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = await started(owner.token, organization.id, "1.0.0");
    await patch(owner.token, url, 0, image);
    const appId = await finishAsNewApp(t, owner.token, organization.id, url);
    const { appKey } = await appKeyOf(owner.token, appId);
    const apiKey = await t.services.tokens.issueApiKey(owner.user.id);

    const plain = await ciUpload(appKey, apiKey, { whats_new: "plain" }, dmg("1.0.1", "app"));
    expect(plain.statusCode, plain.body).toBe(200);
    const next = await started(owner.token, organization.id, "1.0.2");
    await patch(owner.token, next, 0, image);
    const viaTus = await ciUpload(appKey, apiKey, { upload_id: idOf(next), whats_new: "resumed" });
    expect(viaTus.statusCode, viaTus.body).toBe(200);
    expect(Object.keys(viaTus.json()).sort()).toEqual(Object.keys(plain.json()).sort());
    expect(viaTus.json()).toMatchObject({
      id: appId,
      success: "ok",
      new_version: "1.0.2",
      count_versions: 3,
    });
    expect(viaTus.json().current_version).toMatchObject({ whats_new: "resumed" });
    // The same refusals as a streamed file: that version exists now (error 2, CI's shape).
    const again = await started(owner.token, organization.id, "1.0.2");
    await patch(owner.token, again, 0, image);
    const refused = await ciUpload(appKey, apiKey, { upload_id: idOf(again) });
    const streamed = await ciUpload(appKey, apiKey, {}, dmg("1.0.2", "app"));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(streamed.json());
    // A refusal after the bytes were read uses the upload up, as a streamed file's would be deleted.
    expect((await head(owner.token, again)).statusCode).toBe(404);
    expect(storedParts(organization.id)).toEqual([]);
  });

  it("refuses at creation what a plain upload would be refused for", async () => {
    const { organization, owner } = await createOrganization(t);
    await setLimits(t, organization.id, { spaceLimitMb: 1 });
    await setUsage(t, organization.id, { spaceUsedBytes: 1024 * 1024 - image.length });
    const full = await createUpload(t, owner.token, {
      filename: "Tarmac-1.2.3.dmg",
      organization: organization.id,
    });
    expect(full.statusCode).toBe(400);
    expect(full.json()).toEqual({ error_code: 6, detail: uploadErrorDetails[6] });
    const plain = await preload(t, owner.token, { organization: organization.id }, dmg("1.2.3"));
    expect(plain.json()).toEqual(full.json());
    const huge = await createUpload(
      t,
      owner.token,
      { filename: "Tarmac-1.2.3.dmg", organization: organization.id },
      { length: t.config.UPLOAD_MAX_BYTES + 1 },
    );
    expect(huge.statusCode).toBe(413);
    const exe = await createUpload(t, owner.token, { filename: "tool.exe", organization: organization.id });
    expect(exe.json().error_code).toBe(1);
    const tester = await addMember(t, organization.id, 5);
    const notAllowed = await createUpload(t, tester.token, {
      filename: "a.dmg",
      organization: organization.id,
    });
    expect(notAllowed.statusCode).toBe(403);
    expect(
      await t.database.db.select().from(tusUploads).where(eq(tusUploads.organizationId, organization.id)),
    ).toEqual([]);
  });

  it("works with tus-js-client over a real connection that breaks mid-upload", async () => {
    const { organization, owner } = await createOrganization(t);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address() as net.AddressInfo;
    const proxy = await cuttingProxy(address.port, 200_000);
    try {
      const patchedFrom: number[] = [];
      const url = await new Promise<string>((resolve, reject) => {
        const upload = new Upload(image, {
          endpoint: `http://127.0.0.1:${proxy.port}/api/uploads/`,
          headers: authHeader(owner.token),
          metadata: { filename: "Tarmac-1.2.3.dmg", organization: String(organization.id) },
          retryDelays: [100, 300, 1000, 2000],
          onBeforeRequest: (request) => {
            if (request.getMethod() === "PATCH") patchedFrom.push(Number(request.getHeader("Upload-Offset")));
          },
          onError: reject,
          onSuccess: () => resolve(upload.url as string),
        });
        upload.start();
      });
      expect(proxy.cuts()).toBe(1);
      // The whole file went in one PATCH that broke off; the client went on from what was kept.
      expect(patchedFrom[0]).toBe(0);
      expect(patchedFrom.at(-1)).toBeGreaterThan(0);
      expect((patchedFrom.at(-1) as number) % partBytes).toBe(0);
      const appId = await finishAsNewApp(t, owner.token, organization.id, new URL(url).pathname);
      expect(await downloadedSha(t, owner.token, appId)).toBe(sha256(image));
    } finally {
      await proxy.close();
    }
  });
});
