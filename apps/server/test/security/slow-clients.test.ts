import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, multipart } from "../builds/upload-helpers.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** A raw client: sends `head`, then `body` a chunk at a time, and reports what the server did. */
function rawClient(port: number, head: string) {
  const socket: Socket = connect(port, "127.0.0.1");
  let received = "";
  const closed = new Promise<number>((resolve) => {
    const start = Date.now();
    socket.on("close", () => resolve(Date.now() - start));
  });
  socket.on("data", (chunk) => {
    received += chunk.toString("latin1");
  });
  socket.on("error", () => undefined);
  socket.write(head);
  return { socket, closed, received: () => received };
}

/** Resolves with the result, or with "open" when the server kept the socket past `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "open"> {
  return Promise.race([promise, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms))]);
}

describe("slow and oversized clients", () => {
  let t: TestApp;
  let port: number;
  let token: string;
  let organizationId: number;

  beforeAll(async () => {
    t = await createTestApp({
      HTTP_IDLE_TIMEOUT_MS: "1500",
      HTTP_HEADERS_TIMEOUT_MS: "1500",
      BODY_MIN_BYTES_PER_SECOND: "2000",
      BODY_RATE_WINDOW_SECONDS: "2",
      UPLOADS_PER_USER: "1",
      UPLOAD_MAX_BYTES: String(2 * 1024 * 1024),
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as { port: number }).port;
    const created = await createOrganization(t);
    token = created.owner.token;
    organizationId = created.organization.id;
  });
  afterAll(() => t.close());

  const uploadHead = (length: number, boundary: string) =>
    "POST /api/applicationadd/?preload=1 HTTP/1.1\r\nHost: x\r\n" +
    `Authorization: Token ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
    `Content-Length: ${length}\r\n\r\n`;

  it("closes a connection whose headers never finish", async () => {
    const client = rawClient(port, "GET /api/health/ HTTP/1.1\r\nHost: x\r\n");
    expect(await within(client.closed, 8000)).not.toBe("open");
  });

  it("closes a body that stalls, and one that trickles", async () => {
    const stalled = rawClient(port, uploadHead(1_000_000, "b"));
    stalled.socket.write(
      `--b\r\nContent-Disposition: form-data; name="organization"\r\n\r\n${organizationId}\r\n`,
    );
    expect(await within(stalled.closed, 8000)).not.toBe("open");

    const trickling = rawClient(port, uploadHead(1_000_000, "b"));
    const drip = setInterval(() => trickling.socket.write("x".repeat(100)), 300);
    const closedAfter = await within(trickling.closed, 10_000);
    clearInterval(drip);
    expect(closedAfter).not.toBe("open");
  });

  it("refuses a declared length above the upload limit before reading the body", async () => {
    const client = rawClient(port, uploadHead(50 * 1024 * 1024, "b"));
    const closed = await within(client.closed, 8000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 413/);
    expect(closed).not.toBe("open");
  });

  it("limits uploads running at once per person", async () => {
    // One upload held open (its body not finished) takes the person's only slot.
    const held = rawClient(port, uploadHead(1_000_000, "b"));
    held.socket.write(
      `--b\r\nContent-Disposition: form-data; name="organization"\r\n\r\n${organizationId}\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const body = multipart({ organization: organizationId }, fixture("android/modern.apk"));
    const second = await t.app.inject({
      method: "POST",
      url: "/api/applicationadd/?preload=1",
      payload: body.payload,
      headers: { ...body.headers, authorization: `Token ${token}` },
    });
    expect(second.statusCode).toBe(429);
    expect(second.headers["retry-after"]).toBeDefined();
    held.socket.destroy();
    await held.closed;
    // The slot is given back when the held upload ends.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const third = await t.app.inject({
      method: "POST",
      url: "/api/applicationadd/?preload=1",
      payload: body.payload,
      headers: { ...body.headers, authorization: `Token ${token}` },
    });
    expect(third.statusCode).toBe(200);
  });
});
