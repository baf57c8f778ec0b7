// Distribution end to end: an owner adds a tester to a group and sends the builds through the web
// app; the mail arrives at a loopback SMTP server; its install link shows an emulated iPhone the
// iOS install button and an emulated Android phone the APK download.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, devices, type Page } from "playwright-core";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, issueAdminToken } from "../../apps/server/test/helpers/server-process.ts";
import { type Harness, startHarness } from "../helpers/harness.ts";
import { en, fixtures } from "../helpers/shared-files.ts";

const TESTER = "tina.tester@example.test";

let harness: Harness;
let dataDir: string;
let smtp: SMTPServer;
const received: { to: string; body: string }[] = [];
let token: string;
let owner: Page;
let ownerContext: BrowserContext;

async function api(pathname: string, init: RequestInit = {}) {
  const response = await fetch(`${harness.baseUrl}${pathname}`, {
    ...init,
    headers: { Authorization: `Token ${token}`, ...(init.headers ?? {}) },
  });
  return { status: response.status, body: await response.json() };
}

/** Preload and confirm one build over the API (the modal is covered by uploads.e2e.ts). */
async function upload(organization: number, fixture: string, draft: Record<string, unknown>) {
  const form = new FormData();
  form.set("organization", String(organization));
  form.set("file", new Blob([readFileSync(path.join(fixtures, fixture))]), path.basename(fixture));
  const preload = await api("/api/applicationadd/?preload=1", { method: "POST", body: form });
  expect(preload.status).toBe(200);
  const created = await api("/api/applications/", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ organization, preload_path: preload.body.preload_path, ...draft }),
  });
  expect(created.status).toBe(201);
  return created.body as { id: number; project_app: number };
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let body = "";
      stream.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      stream.on("end", () => {
        for (const to of session.envelope.rcptTo) received.push({ to: to.address, body });
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tarmac-e2e-distribution-"));
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String((smtp.server.address() as AddressInfo).port),
    SMTP_SECURE: "false",
  };
  token = issueAdminToken(env, "owner@distribution.test");
  harness = await startHarness(env);
  ownerContext = await harness.newContext({ viewport: { width: 1366, height: 900 } });
  await ownerContext.addCookies([{ name: "tarmac_token", value: token, url: harness.baseUrl }]);
  owner = await ownerContext.newPage();
});

afterAll(async () => {
  await harness?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function waitForMail(to: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const mail = received.find((item) => item.to === to);
    if (mail) return mail.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to}`);
}

describe("distributing builds to testers", () => {
  it("adds a tester to a group, mails the install link and offers each phone its build", async () => {
    const organization = await api("/api/organizations/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Rocket Labs", subdomain: "rocket-labs" }),
    });
    expect(organization.status).toBe(201);
    const android = await upload(organization.body.id, "android/modern.apk", {
      project_title: "Rocket",
      title: "Rocket",
    });
    await upload(organization.body.id, "apple/ipa/adhoc.ipa", {
      project_app: android.project_app,
      title: "Rocket",
    });

    await owner.goto(`/dashboard/apps/${android.id}`);
    await owner.getByRole("tab", { name: en.distribution.tab }).click();
    const groupForm = owner.getByRole("form", { name: en.groups.create });
    await groupForm.getByLabel(en.groups.name).fill("Beta crew");
    await groupForm.getByRole("button", { name: en.groups.create }).click();
    await owner.getByRole("region", { name: "Beta crew" }).waitFor();

    const testerForm = owner.getByRole("form", { name: en.testers.add });
    await testerForm.getByLabel(en.testers.email).fill(TESTER);
    await testerForm.locator(".mantine-MultiSelect-input").click();
    await owner.getByRole("option", { name: "Beta crew" }).click();
    await testerForm.getByRole("button", { name: en.testers.add }).click();
    await owner.getByRole("cell", { name: TESTER }).first().waitFor();

    await owner.getByRole("button", { name: en.send.open }).first().click();
    const dialog = owner.getByRole("dialog", { name: en.send.title });
    await dialog
      .getByRole("checkbox", {
        name: en.send.group_label.replace("{{title}}", "Beta crew").replace("{{count}}", "1"),
      })
      .check();
    await dialog.getByRole("button", { name: en.send.send.replace("{{count}}", "1") }).click();

    const mail = (await waitForMail(TESTER)).replace(/=\r?\n/g, "");
    const links = [...mail.matchAll(/https?:\/\/127\.0\.0\.1:\d+\/getapp\/([A-Za-z0-9_-]+)/g)].map(
      (match) => match[0],
    );
    expect(links.length).toBeGreaterThan(0);
    const link = links[0] ?? "";

    const iphone = await harness.newContext({ ...devices["iPhone 13"] });
    const iphonePage = await iphone.newPage();
    await iphonePage.goto(link);
    // This instance is on plain HTTP, from which iOS installs nothing: the button says so, disabled.
    const install = iphonePage.getByRole("button", { name: en.install.install_iphone });
    await install.waitFor();
    expect(await install.isDisabled()).toBe(true);
    await iphonePage.getByText(en.install.ios_disabled).waitFor();
    expect(await iphonePage.getByRole("link", { name: en.install.install_iphone }).count()).toBe(0);

    const android13 = await harness.newContext({ ...devices["Pixel 7"] });
    const androidPage = await android13.newPage();
    await androidPage.goto(link);
    const apk = androidPage.getByRole("link", { name: en.install.download_apk });
    await apk.waitFor();
    const response = await fetch(new URL((await apk.getAttribute("href")) ?? "", link));
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(
      readFileSync(path.join(fixtures, "android/modern.apk")),
    );
    await iphone.close();
    await android13.close();
  });
});
