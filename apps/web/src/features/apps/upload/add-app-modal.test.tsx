import { uploadErrorMessages } from "@tarmac/contracts";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import en from "../../../../public/media/i18n/en.json" with { type: "json" };
import { ApiError } from "../../../api/client.ts";
import { ConnectionLostError } from "../../../api/resumable-upload.ts";
import { makeOrg, makeProfile } from "../../../test/account-fixtures.ts";
import { makeApp, makePreload, pageOf } from "../../../test/application-fixtures.ts";
import { makeLink, makeRecipients } from "../../../test/distribution-fixtures.ts";
import { FakeTransfer } from "../../../test/fake-transfer.ts";
import { FakeXhr } from "../../../test/fake-xhr.ts";
import { makeUsage } from "../../../test/plan-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../../test/render.tsx";

const texts = en as unknown as Record<string, string>;
const LIST_URL = "GET /api/applications/?org=7&page=1&page_size=20";

function serve(extra: Record<string, ApiReply | (() => ApiReply)> = {}, orgOverrides = {}) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg(orgOverrides)] })] },
    [LIST_URL]: { status: 200, body: pageOf([]) },
    "GET /api/organization/usage/?org=7": {
      status: 200,
      body: { org_id: 7, space_used: 10, space_limit: 100, critical: false },
    },
    ...extra,
  });
}

function apk(name = "rocket.apk", bytes = 1024): File {
  const file = new File(["apk"], name);
  Object.defineProperty(file, "size", { value: bytes });
  return file;
}

async function openModal() {
  const user = userEvent.setup();
  renderApp("/dashboard/apps");
  // The first visit loads the lazy route modules, which is slow on a busy machine.
  await user.click(
    (await screen.findAllByRole("button", { name: "Add app" }, { timeout: 5000 }))[0] as HTMLElement,
  );
  const dialog = await screen.findByRole("dialog", { name: "Add app" }, { timeout: 5000 });
  return { user, dialog };
}

async function chooseFile(user: ReturnType<typeof userEvent.setup>, file: File) {
  await user.upload(screen.getByLabelText("Build file"), file);
}

/** The tus upload of the file finishes: the preload naming it goes out. */
function finishTransfer(): FakeXhr {
  act(() => FakeTransfer.last().finish());
  return FakeXhr.last();
}

/** Uploads a file and answers the preload with `result`. */
async function preloadWith(user: ReturnType<typeof userEvent.setup>, result = makePreload()) {
  await chooseFile(user, apk());
  const xhr = finishTransfer();
  act(() => xhr.reply(200, result));
  await screen.findByText("Completed");
}

describe("add-app modal", () => {
  useSignedInTestSession();
  beforeEach(() => {
    // jsdom has no layout; the organization picker scrolls its options into view.
    Element.prototype.scrollIntoView ??= () => {};
    FakeXhr.all = [];
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    FakeTransfer.install();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows 'Uploading… ' with the percentage, then reading, then COMPLETED with the draft filled", async () => {
    serve();
    const { user, dialog } = await openModal();
    await chooseFile(user, apk());
    const transfer = FakeTransfer.last();
    expect(transfer.request.organization).toBe(7);
    expect(transfer.request.file.name).toBe("rocket.apk");
    // The bytes go over tus; the preload waits for them.
    expect(FakeXhr.all).toHaveLength(0);
    expect(await within(dialog).findByText("Uploading… 0%")).toBeTruthy();
    act(() => transfer.progress(40));
    expect(await within(dialog).findByText("Uploading… 40%")).toBeTruthy();
    act(() => transfer.progress(100));
    expect(await within(dialog).findByText(texts["GET DATA FROM FILE"] as string)).toBeTruthy();
    act(() => transfer.finish("0123456789abcdef0123456789abcdef"));
    const xhr = FakeXhr.last();
    expect(xhr.url).toBe("/api/applicationadd/?preload=1");
    expect(xhr.sent?.get("organization")).toBe("7");
    expect(xhr.sent?.get("app")).toBeNull();
    expect(xhr.sent?.get("upload_id")).toBe("0123456789abcdef0123456789abcdef");
    expect(xhr.sent?.get("file")).toBeNull();
    expect(within(dialog).getByText(texts["GET DATA FROM FILE"] as string)).toBeTruthy();
    act(() =>
      xhr.reply(
        200,
        makePreload({ version_exist: true, unique_app_id_changed: true, unique_app_id_new: "com.b" }),
      ),
    );
    expect(await within(dialog).findByText("Completed")).toBeTruthy();
    expect((within(dialog).getByLabelText(/Project title/) as HTMLInputElement).value).toBe("Rocket");
    expect((within(dialog).getByLabelText("Version") as HTMLInputElement).value).toBe("2.0.0");
    expect((within(dialog).getByLabelText("Build") as HTMLInputElement).value).toBe("50");
    expect(within(dialog).getByText(/Version 2.0.0 \(50\) is already in this app/)).toBeTruthy();
    expect(within(dialog).getByText(/another bundle id \(com.b\)/)).toBeTruthy();
    expect(within(dialog).getByRole("checkbox", { name: "Use the new bundle id for this app" })).toBeTruthy();
    // The answer already says Add would be refused: Add is not offered as if it would work.
    expect((within(dialog).getByRole("button", { name: "Add" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("creates the app on 201, then shows its install link in place until Done", async () => {
    const calls = serve({
      "POST /api/applications/": { status: 201, body: makeApp({ id: 31 }) },
      "GET /api/applications/31/?showenvall=1": { status: 200, body: makeApp({ id: 31 }) },
      "GET /api/distributions/?app=31&page_size=100": {
        status: 200,
        body: pageOf([
          makeLink({ app: 31, url: "https://tarmac.test/getapp/k31", qr: "data:image/png;base64,QQ" }),
        ]),
      },
    });
    const { user, dialog } = await openModal();
    await preloadWith(user);
    const title = within(dialog).getByLabelText(/Project title/);
    await user.clear(title);
    await user.type(title, "  Rocket X  ");
    await user.click(within(dialog).getByRole("button", { name: "Add" }));
    expect(await screen.findByText("File uploaded successfully")).toBeTruthy();
    const create = calls.find((call) => call.method === "POST" && call.url === "/api/applications/");
    expect(create?.body).toMatchObject({
      project_title: "Rocket X",
      organization: 7,
      preload_path: "preloads/7/abc",
      ready_to_sale: true,
    });
    // The dialog stays, now on the build's install link and its QR code.
    const link = await within(dialog).findByLabelText(en.share.link_label);
    expect((link as HTMLInputElement).value).toBe("https://tarmac.test/getapp/k31");
    expect(within(dialog).getByRole("img", { name: en.share.qr_alt }).getAttribute("src")).toBe(
      "data:image/png;base64,QQ",
    );
    const qr = within(dialog).getByRole("link", { name: en.share.download_qr });
    expect(qr.getAttribute("href")).toBe("data:image/png;base64,QQ");
    expect(qr.getAttribute("download")).toBe("Rocket-qr.png");
    expect(within(dialog).queryByRole("alert")).toBeNull();
    await user.click(within(dialog).getByRole("button", { name: en.share.copy_link }));
    expect(await screen.findByText("Copied to clipboard")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: en.share.done }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Add app" })).toBeNull());
    expect(await screen.findByRole("heading", { name: "Rocket" })).toBeTruthy();
  });

  it("warns in the share panel of an IPA phones will refuse, and sends to testers from there", async () => {
    serve({
      "POST /api/applications/": { status: 201, body: makeApp({ id: 31 }) },
      "GET /api/applications/31/?showenvall=1": { status: 200, body: makeApp({ id: 31 }) },
      "GET /api/distributions/?app=31&page_size=100": { status: 200, body: pageOf([makeLink({ app: 31 })]) },
      "GET /api/app-teams/31/?ver=100": { status: 200, body: makeRecipients() },
    });
    const { user, dialog } = await openModal();
    const storeSigned = { code: "ipa_app_store" as const, message: "Signed for the App Store." };
    await preloadWith(user, makePreload({ warnings: [storeSigned] }));
    await user.click(within(dialog).getByRole("button", { name: "Add" }));
    const warning = await within(dialog).findByRole("alert");
    expect(within(warning).getByText(en.share.warnings_title)).toBeTruthy();
    expect(within(warning).getByText(en.share.warnings.ipa_app_store)).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: en.share.send_testers }));
    const send = await screen.findByRole("dialog", { name: "Send to testers" });
    await within(send).findByText("Recipients: 0");
    await user.click(within(send).getByRole("button", { name: "Cancel" }));
    // Back on the install link, which stays until the person is done with it.
    expect(await screen.findByRole("button", { name: en.share.done })).toBeTruthy();
  });

  it("keeps Add disabled without a project title and ignores a second click while saving", async () => {
    let answer: (reply: ApiReply) => void = () => {};
    const calls = serve();
    const { user, dialog } = await openModal();
    await preloadWith(user);
    await user.clear(within(dialog).getByLabelText(/Project title/));
    expect(within(dialog).getByRole("button", { name: "Add" }).hasAttribute("disabled")).toBe(true);
    await user.type(within(dialog).getByLabelText(/Project title/), "R");
    const pending = new Promise<ApiReply>((resolve) => {
      answer = resolve;
    });
    vi.mocked(fetch).mockImplementation(async (url) => {
      calls.push({ method: "POST", url: String(url), body: null });
      const reply = await pending;
      return new Response(JSON.stringify(reply.body), { status: reply.status });
    });
    const add = within(dialog).getByRole("button", { name: "Add" });
    fireEvent.click(add);
    fireEvent.click(add);
    expect(calls.filter((call) => call.url === "/api/applications/")).toHaveLength(1);
    await act(async () => answer({ status: 400, body: { error_code: 2, detail: "exists" } }));
    expect(await within(dialog).findByText("This version already exists")).toBeTruthy();
  });

  it.each(Object.entries(uploadErrorMessages))("shows the message of upload error %s", async (code, key) => {
    serve();
    const { user, dialog } = await openModal();
    await chooseFile(user, apk());
    const xhr = finishTransfer();
    act(() => xhr.reply(400, { error_code: Number(code), detail: "no" }));
    expect(await within(dialog).findByText(texts[key] as string)).toBeTruthy();
  });

  it("shows the message of an upload refused before its first byte (tus creation)", async () => {
    serve();
    const { user, dialog } = await openModal();
    await chooseFile(user, apk());
    act(() => FakeTransfer.last().fail(new ApiError(400, { error_code: 6, detail: "full" }, "full")));
    expect(await within(dialog).findByText(texts[uploadErrorMessages[6]] as string)).toBeTruthy();
    expect(FakeXhr.all).toHaveLength(0);
  });

  it("says the connection was lost while it retries, goes on when bytes flow, and explains a final loss", async () => {
    serve();
    const { user, dialog } = await openModal();
    await chooseFile(user, apk());
    const transfer = FakeTransfer.last();
    act(() => transfer.progress(30));
    await within(dialog).findByText("Uploading… 30%");
    act(() => transfer.retry());
    expect(await within(dialog).findByText(en.upload.connection_lost)).toBeTruthy();
    expect(within(dialog).queryByRole("alert")).toBeNull();
    act(() => transfer.progress(45));
    expect(await within(dialog).findByText("Uploading… 45%")).toBeTruthy();
    act(() => transfer.retry());
    await within(dialog).findByText(en.upload.connection_lost);
    act(() => transfer.fail(new ConnectionLostError()));
    expect(await within(dialog).findByText(en.upload.connection_failed)).toBeTruthy();
    expect(within(dialog).queryByText(en.upload.connection_lost)).toBeNull();
    expect(within(dialog).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("0");
  });

  it("shows the file-name message, then the server's own words, with progress back to 0", async () => {
    serve();
    const { user, dialog } = await openModal();
    await chooseFile(user, apk());
    const first = finishTransfer();
    act(() => first.reply(400, { file: ["Ensure this filename has at most 100 characters (it has 120)."] }));
    expect(
      await within(dialog).findByText(texts["ENSURE THIS FILENAME HAS AT MOST 100 CHARACTERS"] as string),
    ).toBeTruthy();
    await chooseFile(user, apk());
    act(() => FakeTransfer.last().progress(60));
    await within(dialog).findByText("Uploading… 60%");
    const second = finishTransfer();
    act(() => second.reply(500, { detail: "boom" }));
    expect(await within(dialog).findByText("boom")).toBeTruthy();
    expect(within(dialog).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("0");
  });

  it("sends the user to /login on 401", async () => {
    serve({ "GET /login": { status: 200, body: null } });
    const { user } = await openModal();
    await chooseFile(user, apk());
    const xhr = finishTransfer();
    act(() => xhr.reply(401, { detail: "no" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Log in" })).toBeTruthy());
  });

  it("refuses several files, an unsupported type, a missing organization and a full storage", async () => {
    serve({}, { space_used: 99.5, space_limit: 100 });
    const { user, dialog } = await openModal();
    fireEvent.drop(within(dialog).getByTestId("drop-zone"), {
      dataTransfer: { files: [apk(), apk("b.ipa")] },
    });
    expect(
      await within(dialog).findByText(texts["CANNOT LOAD MULTIPLE FILES PLEASE SELECT ONE FILE"] as string),
    ).toBeTruthy();
    await chooseFile(user, apk("setup.exe"));
    expect(await within(dialog).findByText(/^Unsupported file type\. .*\.apk, \.aab, \.ipa/)).toBeTruthy();
    await chooseFile(user, apk("big.apk", 200 * 1024 * 1024));
    expect(await within(dialog).findByText(texts[uploadErrorMessages[6]] as string)).toBeTruthy();
    // Choosing the selected organization again deselects it.
    await user.click(within(dialog).getByRole("combobox", { name: "Organization" }));
    await user.click(await screen.findByRole("option", { name: "Acme", hidden: true }));
    await chooseFile(user, apk());
    expect(
      await within(dialog).findByText(texts["PLEASE SELECT ONE OF THE ORGANIZATION"] as string),
    ).toBeTruthy();
    expect(FakeTransfer.all).toHaveLength(0);
  });

  it("refuses a new project at the plan's project limit before sending the file, naming the way out", async () => {
    const usage = makeUsage({ projects_count: 3, projects_limit: 3 });
    serve({ "GET /api/organization/usage/?org=7": { status: 200, body: usage } });
    const { user, dialog } = await openModal();
    await within(dialog).findByText(new RegExp(en.upload.project_limit_note.slice(0, 30)));
    await chooseFile(user, apk());
    const ask = "Ask the administrator of this Tarmac instance (root@tarmac.test) to raise the limit.";
    expect(await within(dialog).findByText(`${en.upload.project_limit_reached} ${ask}`)).toBeTruthy();
    expect(FakeTransfer.all).toHaveLength(0);
    expect(within(dialog).getByRole("link", { name: en.upload.see_plan })).toBeTruthy();
  });

  it("where the administrator sets limits, names them at the project limit and at a full storage", async () => {
    const usage = makeUsage({ space_used: 99.5, space_limit: 100, projects_count: 3, projects_limit: 3 });
    serve({ "GET /api/organization/usage/?org=7": { status: 200, body: usage } });
    const { user, dialog } = await openModal();
    const ask = "Ask the administrator of this Tarmac instance (root@tarmac.test) to raise the limit.";
    expect(await within(dialog).findByText(`${en.upload.project_limit_note} ${ask}`)).toBeTruthy();
    await chooseFile(user, apk("big.apk", 2 * 1024 * 1024));
    expect(await within(dialog).findByText(`Storage space is full. ${ask}`)).toBeTruthy();
    expect(within(dialog).queryByText(/Please upgrade your plan/)).toBeNull();
    expect(FakeTransfer.all).toHaveLength(0);
  });

  it("cancels: gives the upload up on the server and resets after 100 ms", async () => {
    serve();
    const { user, dialog } = await openModal();
    await chooseFile(user, apk());
    act(() => FakeTransfer.last().progress(30));
    await within(dialog).findByText("Uploading… 30%");
    await user.click(within(dialog).getByRole("button", { name: "Cancel upload" }));
    expect(FakeTransfer.last().terminated).toBe(true);
    expect(FakeXhr.all).toHaveLength(0);
    await waitFor(() => expect(within(dialog).queryByText(/Uploading/)).toBeNull());
    expect(within(dialog).queryByText("Application Error")).toBeNull();
  });

  it("keeps an upload below 100% running when closed, in the progress widget", async () => {
    serve();
    const { user, dialog } = await openModal();
    await chooseFile(user, apk());
    act(() => FakeTransfer.last().progress(20));
    await within(dialog).findByText("Uploading… 20%");
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    const widget = await screen.findByRole("group", { name: "Upload progress" });
    expect(within(widget).getByText("rocket.apk")).toBeTruthy();
    expect(FakeTransfer.last().terminated).toBe(false);
    await user.click(within(widget).getByRole("button", { name: "Show" }));
    const reopened = await screen.findByRole("dialog", { name: "Add app" });
    expect(within(reopened).getByText("Uploading… 20%")).toBeTruthy();
    // Closed again, the widget also shows the upload finishing.
    await user.click(within(reopened).getByRole("button", { name: "Close" }));
    const xhr = finishTransfer();
    act(() => xhr.reply(200, makePreload()));
    const finished = await screen.findByRole("group", { name: "Upload progress" });
    expect(await within(finished).findByText("Completed")).toBeTruthy();
    await user.click(within(finished).getByRole("button", { name: "Show" }));
    expect(await screen.findByRole("button", { name: "Add" })).toBeTruthy();
  });

  it("resets the draft when closed after the preload", async () => {
    serve();
    const { user, dialog } = await openModal();
    await preloadWith(user);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Add app" })).toBeNull());
    await user.click(screen.getAllByRole("button", { name: "Add app" })[0] as HTMLElement);
    const again = await screen.findByRole("dialog", { name: "Add app" });
    expect(within(again).queryByText("Completed")).toBeNull();
    expect(within(again).getByRole("button", { name: "Choose a file" })).toBeTruthy();
  });

  it("polls a 202 task every 5000 ms until it succeeds", async () => {
    let polls = 0;
    const calls = serve({
      "POST /api/applications/": { status: 202, body: { task_id: "t-9" } },
      "GET /api/upload-task-result/t-9/": () => {
        polls += 1;
        const done = polls >= 2;
        return {
          status: 200,
          body: {
            task_id: "t-9",
            state: done ? "SUCCESS" : "PENDING",
            result: done ? makeApp({ id: 32 }) : null,
            error_code: null,
            detail: "",
          },
        };
      },
      "GET /api/applications/32/?showenvall=1": { status: 200, body: makeApp({ id: 32 }) },
    });
    const { user, dialog } = await openModal();
    await preloadWith(user);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add" }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    await act(() => vi.advanceTimersByTimeAsync(4999));
    expect(polls).toBe(0);
    expect(screen.getByText("Processing the build…")).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(polls).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(polls).toBe(2);
    vi.useRealTimers();
    expect(await screen.findByText("File uploaded successfully")).toBeTruthy();
    expect(calls.filter((call) => call.url === "/api/upload-task-result/t-9/")).toHaveLength(2);
  });

  it("shows the failure code of a task that failed", async () => {
    serve({
      "POST /api/applications/": { status: 202, body: { task_id: "t-1" } },
      "GET /api/upload-task-result/t-1/": {
        status: 200,
        body: { task_id: "t-1", state: "FAILURE", result: null, error_code: 9, detail: "" },
      },
    });
    const { user, dialog } = await openModal();
    await preloadWith(user);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add" }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    await act(() => vi.advanceTimersByTimeAsync(5000));
    vi.useRealTimers();
    expect(await within(dialog).findByText(texts[uploadErrorMessages[9]] as string)).toBeTruthy();
  });
});
