import type { CustomStorage, GoogleCloudStorage, StorageOverview } from "@tarmac/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const EMPTY_S3: CustomStorage = {
  enabled: false,
  configured: false,
  endpoint: "",
  region: "",
  bucket: "",
  prefix: "",
  path_style: false,
  access_key_id: "",
  secret_access_key_set: false,
  updated_at: null,
};
const EMPTY_GCS: GoogleCloudStorage = {
  enabled: false,
  configured: false,
  bucket: "",
  prefix: "",
  project_id: "",
  client_email: "",
  gcs_credentials_set: false,
  updated_at: null,
};
const INSTANCE: StorageOverview = { kind: "instance", files_elsewhere: 0, move: null };

function serve(
  role: number,
  overview: StorageOverview | (() => ApiReply) = INSTANCE,
  extra: Record<string, ApiReply | (() => ApiReply)> = {},
  s3: CustomStorage = EMPTY_S3,
) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role })] })] },
    "GET /api/orgs-storage/7/": typeof overview === "function" ? overview : { status: 200, body: overview },
    "GET /api/orgs-custom-storage/7/": { status: 200, body: s3 },
    "GET /api/orgs-google-cloud-storage/7/": { status: 200, body: EMPTY_GCS },
    ...extra,
  });
}

describe("storage page", () => {
  useSignedInTestSession();

  it("says where new files go and offers the three storages", async () => {
    serve(2);
    renderApp("/dashboard/organization/storage");
    expect((await screen.findByTestId("storage-status")).textContent).toBe(
      "New files go to this Tarmac's own storage.",
    );
    expect(screen.getByText("All builds are where new files go.")).toBeTruthy();
    const menu = screen.getByRole("navigation", { name: "Main menu" });
    expect(within(menu).getByRole("link", { name: "Storage" }).getAttribute("aria-current")).toBe("page");
  });

  it("saves an S3-compatible bucket and shows the server's field errors", async () => {
    let puts = 0;
    const calls = serve(1, INSTANCE, {
      "PUT /api/orgs-custom-storage/7/": () => {
        puts += 1;
        return puts === 1
          ? { status: 400, body: { bucket: ["This bucket does not exist."] } }
          : { status: 200, body: { ...EMPTY_S3, enabled: true, configured: true, bucket: "builds" } };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/storage");
    await user.click(await screen.findByRole("radio", { name: /S3-compatible/ }));
    const form = screen.getByRole("form", { name: "S3-compatible" });
    await user.type(within(form).getByLabelText(/^Endpoint/), "https://minio.example.com");
    await user.type(within(form).getByLabelText(/^Bucket/), "bulds");
    await user.click(within(form).getByLabelText(/Path-style/));
    await user.type(within(form).getByLabelText(/^Access key ID/), "AKIA1");
    await user.type(within(form).getByLabelText(/^Secret access key/), "s3cret");
    await user.click(within(form).getByRole("button", { name: "Test and use this bucket" }));
    expect(await within(form).findByText("This bucket does not exist.")).toBeTruthy();
    await user.clear(within(form).getByLabelText(/^Bucket/));
    await user.type(within(form).getByLabelText(/^Bucket/), "builds");
    await user.click(within(form).getByRole("button", { name: "Test and use this bucket" }));
    expect(await screen.findByText("The bucket works: new files now go there.")).toBeTruthy();
    const sent = calls.filter((call) => call.method === "PUT").map((call) => call.body);
    expect(sent[1]).toEqual({
      endpoint: "https://minio.example.com",
      region: "us-east-1",
      bucket: "builds",
      prefix: "",
      path_style: true,
      access_key_id: "AKIA1",
      secret_access_key: "s3cret",
    });
  });

  it("keeps a saved secret when the field is left empty", async () => {
    const saved = {
      ...EMPTY_S3,
      enabled: true,
      configured: true,
      bucket: "builds",
      region: "eu-west-1",
      access_key_id: "AKIA1",
      secret_access_key_set: true,
    };
    const calls = serve(
      1,
      { kind: "s3", files_elsewhere: 0, move: null },
      { "PUT /api/orgs-custom-storage/7/": { status: 200, body: saved } },
      saved,
    );
    const user = userEvent.setup();
    renderApp("/dashboard/organization/storage");
    expect((await screen.findByTestId("storage-status")).textContent).toBe(
      "New files go to your S3-compatible bucket builds.",
    );
    const form = screen.getByRole("form", { name: "S3-compatible" });
    expect(within(form).getByText("A secret is saved; leave this empty to keep it.")).toBeTruthy();
    await user.click(within(form).getByRole("button", { name: "Test and use this bucket" }));
    await waitFor(() => expect(calls.some((call) => call.method === "PUT")).toBe(true));
    const put = calls.find((call) => call.method === "PUT");
    expect(put?.body).not.toHaveProperty("secret_access_key");
  });

  it("sends the Google key file as multipart", async () => {
    const calls = serve(1, INSTANCE, {
      "PUT /api/orgs-google-cloud-storage/7/": {
        status: 200,
        body: { ...EMPTY_GCS, enabled: true, configured: true, bucket: "gbuilds", gcs_credentials_set: true },
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/storage");
    await user.click(await screen.findByRole("radio", { name: /Google Cloud Storage/ }));
    const form = screen.getByRole("form", { name: "Google Cloud Storage" });
    await user.type(within(form).getByLabelText(/^Bucket/), "gbuilds");
    const key = new File(['{"type":"service_account"}'], "key.json", { type: "application/json" });
    // Mantine's FileInput is a button with a hidden file input behind it.
    expect(within(form).getByRole("button", { name: /^Service account key/ })).toBeTruthy();
    await user.upload(form.querySelector('input[type="file"]') as HTMLInputElement, key);
    await user.click(within(form).getByRole("button", { name: "Test and use this bucket" }));
    await waitFor(() => expect(calls.some((call) => call.method === "PUT")).toBe(true));
    const body = calls.find((call) => call.method === "PUT")?.body as FormData;
    expect(body.get("bucket")).toBe("gbuilds");
    expect((body.get("gcs_credentials") as File).name).toBe("key.json");
  });

  it("goes back to Tarmac storage after asking", async () => {
    const calls = serve(
      1,
      { kind: "gcs", files_elsewhere: 0, move: null },
      {
        "PUT /api/orgs-cloud-storage-disable/7/": { status: 200, body: { kind: "instance" } },
      },
    );
    const user = userEvent.setup();
    renderApp("/dashboard/organization/storage");
    await user.click(await screen.findByRole("radio", { name: /Tarmac storage/ }));
    await user.click(screen.getByRole("button", { name: "Use Tarmac storage" }));
    const dialog = await screen.findByRole("dialog", { name: "Use Tarmac storage" });
    await user.click(within(dialog).getByRole("button", { name: "Use Tarmac storage" }));
    await waitFor(() =>
      expect(calls.map((call) => `${call.method} ${call.url}`)).toContain(
        "PUT /api/orgs-cloud-storage-disable/7/",
      ),
    );
    expect(await screen.findByText("New files now go to Tarmac's storage.")).toBeTruthy();
  });

  it("moves existing builds and follows the progress", async () => {
    let polls = 0;
    const running: StorageOverview = {
      kind: "s3",
      files_elsewhere: 3,
      move: {
        id: 1,
        state: "running",
        total_files: 4,
        moved_files: 1,
        total_bytes: 4 * 1024 * 1024,
        moved_bytes: 1024 * 1024,
        error: "",
        started_at: "2026-11-24T10:00:00Z",
        finished_at: null,
      },
    };
    const done: StorageOverview = {
      ...running,
      files_elsewhere: 0,
      move: { ...(running.move as NonNullable<StorageOverview["move"]>), state: "done", moved_files: 4 },
    };
    const calls = serve(
      1,
      () => {
        polls += 1;
        if (polls === 1) return { status: 200, body: { kind: "s3", files_elsewhere: 4, move: null } };
        return { status: 200, body: polls < 3 ? running : done };
      },
      { "POST /api/orgs-storage/7/move/": { status: 202, body: running } },
    );
    const user = userEvent.setup();
    renderApp("/dashboard/organization/storage");
    expect(await screen.findByTestId("files-elsewhere")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Move existing builds" }));
    expect(await screen.findByText("1 of 4 files (1.0 MB of 4.0 MB)")).toBeTruthy();
    expect(await screen.findByText("All builds were moved (4 files).", {}, { timeout: 6000 })).toBeTruthy();
    expect(calls.filter((call) => call.method === "POST")).toHaveLength(1);
  });

  it("is not for testers", async () => {
    const calls = serve(5);
    renderApp("/dashboard/organization/storage");
    expect(
      await screen.findByText("Your role in this organization does not give access to this page."),
    ).toBeTruthy();
    expect(calls.map((call) => call.url)).not.toContain("/api/orgs-storage/7/");
  });
});
