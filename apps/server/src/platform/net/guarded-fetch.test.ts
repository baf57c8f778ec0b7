import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch } from "./guarded-fetch.ts";
import { OutboundTargetError } from "./outbound-target.ts";

let server: http.Server;
let port: number;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/redirect") {
        response.writeHead(302, { location: "/elsewhere" }).end();
      } else if (request.url === "/big") {
        response.end(Buffer.alloc(4096, "x"));
      } else if (request.url === "/slow") {
        response.writeHead(200);
        response.write("a first part, then nothing");
      } else if (request.url === "/echo") {
        response.writeHead(201, { "content-type": "application/json" }).end(
          JSON.stringify({
            method: request.method,
            type: request.headers["content-type"] ?? "",
            custom: request.headers["x-custom"] ?? "",
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      } else {
        response.writeHead(200, { "x-test": "yes", "set-cookie": ["a=1", "b=2"] }).end("hello");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const open = { allowPrivateTargets: true, timeoutMs: 5000, maxBytes: 1024 };
const guarded = { ...open, allowPrivateTargets: false };

describe("guardedFetch", () => {
  it("refuses loopback targets, by name or by literal, unless private targets are allowed", async () => {
    const before = seen.length;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
    ]) {
      await expect(guardedFetch(url, {}, guarded), url).rejects.toBeInstanceOf(OutboundTargetError);
    }
    expect(seen.length).toBe(before);
    await expect(guardedFetch("file:///etc/passwd", {}, open)).rejects.toThrow(/not fetched/);
  });

  it("answers like fetch when the target is allowed", async () => {
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`]) {
      const response = await guardedFetch(url, {}, open);
      expect(response).toBeInstanceOf(Response);
      expect(response.status).toBe(200);
      expect(response.statusText).toBe("OK");
      expect(response.headers.get("x-test")).toBe("yes");
      expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
      expect(await response.text()).toBe("hello");
    }
  });

  it("sends the method, headers and each kind of body", async () => {
    for (const [body, type, text] of [
      ["plain", "text/plain;charset=UTF-8", "plain"],
      [
        new URLSearchParams({ a: "1", b: "x y" }),
        "application/x-www-form-urlencoded;charset=UTF-8",
        "a=1&b=x+y",
      ],
      [new TextEncoder().encode("bytes"), "", "bytes"],
    ] as const) {
      const response = await guardedFetch(
        new URL(`http://127.0.0.1:${port}/echo`),
        { method: "POST", headers: { "x-custom": "kept" }, body },
        open,
      );
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ method: "POST", type, custom: "kept", body: text });
    }
  });

  it("returns a redirect as it is, without following it", async () => {
    const before = seen.length;
    const response = await guardedFetch(`http://127.0.0.1:${port}/redirect`, {}, open);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/elsewhere");
    expect(seen.slice(before)).toEqual(["GET /redirect"]);
  });

  it("fails on an answer larger than the cap", async () => {
    await expect(guardedFetch(`http://127.0.0.1:${port}/big`, {}, open)).rejects.toThrow(
      "the answer is larger than 1024 bytes",
    );
  });

  it("gives up at the deadline, or when the caller's signal aborts", async () => {
    const slow = `http://127.0.0.1:${port}/slow`;
    await expect(guardedFetch(slow, {}, { ...open, timeoutMs: 200 })).rejects.toMatchObject({
      name: "TimeoutError",
    });
    const controller = new AbortController();
    const pending = guardedFetch(slow, { signal: controller.signal }, open);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});
