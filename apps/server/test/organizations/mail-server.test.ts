import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { Resvg } from "@resvg/resvg-js";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization, waitFor } from "../helpers/org-factories.ts";
import { mailOutbox, organizationMailServers } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

interface Received {
  from: string;
  to: string;
  body: string;
}

let t: TestApp;
let smtp: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  // A real SMTP server on loopback that wants a login, like a company's relay.
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === "relay" && auth.password === "s3cret") return callback(null, { user: "relay" });
      return callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      let body = "";
      stream.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address).join(","),
          body,
        });
        callback();
      });
    },
  });
  smtp.listen(0, "127.0.0.1");
  await once(smtp.server, "listening");
  port = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: "true" });
  await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const settings = (extra: Record<string, unknown> = {}) => ({
  host: "127.0.0.1",
  port,
  security: "none",
  username: "relay",
  password: "s3cret",
  from_name: "Acme Builds",
  from_email: "builds@acme.test",
  reply_to: "qa@acme.test",
  ...extra,
});

const putServer = (token: string, organizationId: number, body: object) =>
  t.app.inject({
    method: "PUT",
    url: `/api/orgs-smtp/${organizationId}/`,
    headers: authHeader(token),
    payload: body,
  });

describe("an organization's own mail server", () => {
  it("is saved only once the connection and login work, with the password sealed", async () => {
    const { organization, owner } = await createOrganization(t);
    const empty = await t.app.inject({
      url: `/api/orgs-smtp/${organization.id}/`,
      headers: authHeader(owner.token),
    });
    expect(empty.json()).toMatchObject({ configured: false, enabled: false, password_set: false });

    const wrongPassword = await putServer(owner.token, organization.id, settings({ password: "nope" }));
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().password[0]).toMatch(
      /^The server refused the login: .*Invalid username or password/,
    );
    const nobodyThere = await putServer(owner.token, organization.id, settings({ port: 9 }));
    expect(nobodyThere.statusCode).toBe(400);
    expect(nobodyThere.json().host[0]).toMatch(/^Could not connect: /);

    const saved = await putServer(owner.token, organization.id, settings());
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      enabled: true,
      configured: true,
      host: "127.0.0.1",
      security: "none",
      username: "relay",
      password_set: true,
      from_email: "builds@acme.test",
    });
    expect(saved.body).not.toContain("s3cret");
    const [row] = await t.database.db
      .select()
      .from(organizationMailServers)
      .where(eq(organizationMailServers.organizationId, organization.id));
    expect(row?.sealedPassword).toMatch(/^v1\./);
    // Saving again without the password keeps it.
    const { password: _password, ...withoutPassword } = settings();
    expect((await putServer(owner.token, organization.id, withoutPassword)).statusCode).toBe(200);
  });

  it("sends a test mail to the person asking, and the server's words when it fails", async () => {
    const { organization, owner } = await createOrganization(t);
    expect((await putServer(owner.token, organization.id, settings())).statusCode).toBe(200);
    const test = await t.app.inject({
      method: "POST",
      url: `/api/orgs-smtp/${organization.id}/test/`,
      headers: authHeader(owner.token),
    });
    expect(test.json()).toEqual({ detail: `A test mail was sent to ${owner.user.email}.` });
    const mail = received.find((message) => message.to === owner.user.email);
    expect(mail?.from).toBe("builds@acme.test");
    expect(mail?.body).toContain("From: Acme Builds <builds@acme.test>");
    expect(mail?.body).toContain("Reply-To: qa@acme.test");

    // The server goes away after saving: the test says what went wrong.
    await t.database.db
      .update(organizationMailServers)
      .set({ port: 9 })
      .where(eq(organizationMailServers.organizationId, organization.id));
    const failed = await t.app.inject({
      method: "POST",
      url: `/api/orgs-smtp/${organization.id}/test/`,
      headers: authHeader(owner.token),
    });
    expect(failed.statusCode).toBe(400);
    expect(failed.json().detail).toMatch(/ECONNREFUSED|connect/i);
  });

  it("carries the organization's mail; other organizations keep the instance's", async () => {
    const { organization, owner } = await createOrganization(t, { title: "Own Mail Co" });
    expect((await putServer(owner.token, organization.id, settings())).statusCode).toBe(200);
    const other = await createOrganization(t, { title: "Plain Co" });
    const invite = (token: string, organizationId: number, email: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/usersinorgs/",
        headers: authHeader(token),
        payload: {
          userid: email,
          organization: organizationId,
          role: 5,
          first_name: "New",
          last_name: "Tester",
        },
      });
    expect((await invite(owner.token, organization.id, "own.invitee@example.test")).statusCode).toBe(201);
    expect(
      (await invite(other.owner.token, other.organization.id, "plain.invitee@example.test")).statusCode,
    ).toBe(201);
    const relayed = await waitFor(async () =>
      received.find((message) => message.to === "own.invitee@example.test"),
    );
    expect(relayed.body).toContain("Own Mail Co");
    const outboxOf = (to: string) =>
      t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
    await waitFor(async () =>
      (await outboxOf("plain.invitee@example.test")).length === 1 ? true : undefined,
    );
    expect(await outboxOf("own.invitee@example.test")).toEqual([]);

    // Disabled: the organization's mail goes back to the instance's mailer.
    expect((await putServer(owner.token, organization.id, settings({ enabled: false }))).statusCode).toBe(
      200,
    );
    expect((await invite(owner.token, organization.id, "later.invitee@example.test")).statusCode).toBe(201);
    await waitFor(async () =>
      (await outboxOf("later.invitee@example.test")).length === 1 ? true : undefined,
    );
  });

  it("carries the organization's logo inside its mail, made small, and no one else's", async () => {
    const { organization, owner } = await createOrganization(t, { title: "Logo Co" });
    // An 800×200 banner: the mail's copy must fit 480×96 (48 px shown, twice for sharp screens).
    const banner = new Resvg(
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="200"><rect width="800" height="200" fill="#e8590c"/></svg>',
    )
      .render()
      .asPng();
    const boundary = "logo-boundary";
    const upload = await t.app.inject({
      method: "PATCH",
      url: `/api/organizations/${organization.id}/`,
      headers: { ...authHeader(owner.token), "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        banner,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode).toBe(200);
    const invite = (token: string, organizationId: number, email: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/usersinorgs/",
        headers: authHeader(token),
        payload: { userid: email, organization: organizationId, role: 5 },
      });

    // Through the organization's own server: an inline image the HTML shows by its content id.
    expect((await putServer(owner.token, organization.id, settings())).statusCode).toBe(200);
    expect((await invite(owner.token, organization.id, "logo.relayed@example.test")).statusCode).toBe(201);
    const relayed = await waitFor(async () =>
      received.find((message) => message.to === "logo.relayed@example.test"),
    );
    expect(relayed.body).toMatch(/Content-Type: image\/png[\s\S]*Content-ID: <organization-logo>/);
    expect(relayed.body.replace(/=\r\n/g, "")).toContain('src=3D"cid:organization-logo"');

    // Through the instance's mailer (the outbox keeps what was attached): the same, scaled down.
    expect((await putServer(owner.token, organization.id, settings({ enabled: false }))).statusCode).toBe(
      200,
    );
    expect((await invite(owner.token, organization.id, "logo.kept@example.test")).statusCode).toBe(201);
    const outboxOf = (to: string) =>
      waitFor(
        async () => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)))[0],
      );
    const kept = await outboxOf("logo.kept@example.test");
    expect(kept.htmlBody).toContain('src="cid:organization-logo"');
    expect(kept.attachments).toHaveLength(1);
    const [attached] = kept.attachments ?? [];
    expect(attached).toMatchObject({
      filename: "logo.png",
      contentType: "image/png",
      cid: "organization-logo",
    });
    const png = Buffer.from(attached?.content ?? "", "base64");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([384, 96]);
    expect(png.length).toBeLessThan(banner.length * 4);

    // A preview shows the very image, in place of the content id.
    const preview = await t.platform.mail.router.inlinedForPreview(organization.id, kept.htmlBody ?? "");
    expect(preview).toContain(`src="data:image/png;base64,${attached?.content}"`);

    // Another organization's mail carries no logo: not this one, not any.
    const other = await createOrganization(t, { title: "No Logo Co" });
    expect(
      (await invite(other.owner.token, other.organization.id, "plain.kept@example.test")).statusCode,
    ).toBe(201);
    const plain = await outboxOf("plain.kept@example.test");
    expect(plain.attachments).toBeNull();
    expect(plain.htmlBody).not.toContain("cid:");
    expect(plain.htmlBody).toContain("No Logo Co");
  });

  it("is for owners and admins only", async () => {
    const { organization } = await createOrganization(t);
    const tester = await addMember(t, organization.id, 5);
    expect((await putServer(tester.token, organization.id, settings())).statusCode).toBe(403);
    const read = await t.app.inject({
      url: `/api/orgs-smtp/${organization.id}/`,
      headers: authHeader(tester.token),
    });
    expect(read.statusCode).toBe(403);
  });
});
