import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { webhookDeliveries } from "../helpers/tables.ts";
import {
  addAppleAccount,
  createStoreBuild,
  eventsOf,
  postForm,
  runUploadJob,
  useStoreWorld,
  world,
} from "./store-world.ts";

useStoreWorld();

describe("store upload events", () => {
  it("are offered to webhooks only once the organization has a developer account, and reach them when an upload ends", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const hook = () =>
      world.t.app.inject({
        method: "POST",
        url: "/api/webhooks/",
        headers: authHeader(owner.token),
        payload: {
          organization: organization.id,
          url: "http://127.0.0.1:9/hook",
          events: ["store_upload.finished", "store_upload.failed"],
        },
      });
    const refused = await hook();
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      events: [
        "Store upload events need a developer account: add one in the organization's store settings first.",
      ],
    });
    const { account } = await addAppleAccount(owner.token, organization.id);
    const created = await hook();
    expect(created.statusCode).toBe(201);

    const build = await createStoreBuild(organization.id, {
      fixture: "apple/ipa/appstore.ipa",
      size: 5000,
      buildNumber: "77",
    });
    world.apple.addApp(build.bundleId, "Evented");
    const started = await postForm(owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
      integration_id: String(account.id),
    });
    const taskId = started.json().task_id as string;
    await runUploadJob(taskId);
    const event = (await eventsOf("store_upload.finished")).find(
      (entry) => (entry.data.store_upload as { task_id: string }).task_id === taskId,
    );
    expect(event).toBeDefined();
    await world.t.platform.events.job.handler(event as never, { jobId: "dispatch", retryCount: 0 });
    const deliveries = await world.t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, created.json().id));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.eventType).toBe("store_upload.finished");
    expect(deliveries[0]?.payload).toMatchObject({
      type: "store_upload.finished",
      data: {
        message: expect.stringContaining("is in TestFlight"),
        store_upload: { task_id: taskId, store: "app_store" },
        app: { id: build.app.id },
        build: { id: build.version.id, build_number: "77" },
      },
    });
  });
});
