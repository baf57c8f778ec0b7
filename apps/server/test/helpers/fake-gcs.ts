import { createHash, createPublicKey, createVerify, randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";

/**
 * A loopback stand-in for the Google Cloud Storage JSON API, implementing exactly the documented
 * calls the GCS driver makes (cloud.google.com/storage/docs/json_api):
 * - `POST /token`: the OAuth JWT-bearer grant; the assertion's RS256 signature is verified with
 *   the service account's public key, and an access token is issued.
 * - `GET /storage/v1/b/{bucket}`: bucket metadata.
 * - `POST /upload/storage/v1/b/{bucket}/o?uploadType=resumable&name=…`: starts a session
 *   (Location header); `PUT` on the session with `Content-Range` chunks (308 until the last, then
 *   200 with the object); `DELETE` on the session cancels it (499).
 * - `GET/DELETE /storage/v1/b/{bucket}/o/{name}`, `?alt=media` with `Range` (206).
 * - `POST /storage/v1/b/{bucket}/o/{name}/compose`: the named source objects (at most 32) joined
 *   in order into the object.
 * - `GET /storage/v1/b/{bucket}/o?prefix=&pageToken=&maxResults=`: listing in pages.
 * - `GET /{bucket}/{name}?X-Goog-Signature=…`: a V4 signed URL, checked against the canonical
 *   request with the public key, with expiry, `response-content-*` overrides and Range.
 * Objects are files in a temporary directory, so large uploads are not held in memory.
 */
export interface FakeGcs {
  url: string;
  bucket: string;
  /** Names of the objects stored, and of upload sessions not finished. */
  objectNames(): string[];
  openSessions(): number;
  stop(): Promise<void>;
}

interface Stored {
  file: string;
  size: number;
  updated: Date;
}

function googleError(response: ServerResponse, code: number, message: string) {
  response.writeHead(code, { "content-type": "application/json" });
  response.end(JSON.stringify({ error: { code, message, errors: [{ message, reason: "fake" }] } }));
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function strictEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export async function startFakeGcs(options: {
  bucket: string;
  clientEmail: string;
  privateKeyPem: string;
}): Promise<FakeGcs> {
  const publicKey = createPublicKey(options.privateKeyPem);
  const directory = mkdtempSync(path.join(os.tmpdir(), "tarmac-gcs-"));
  const objects = new Map<string, Stored>();
  const sessions = new Map<string, { name: string; file: string; received: number }>();
  const tokens = new Set<string>();

  const verifyJwt = (assertion: string): boolean => {
    const [header, claims, signature] = assertion.split(".");
    if (!header || !claims || !signature) return false;
    const valid = createVerify("RSA-SHA256")
      .update(`${header}.${claims}`)
      .verify(publicKey, Buffer.from(signature, "base64url"));
    const payload = JSON.parse(Buffer.from(claims, "base64url").toString()) as { iss?: string; exp?: number };
    return valid && payload.iss === options.clientEmail && (payload.exp ?? 0) * 1000 > Date.now();
  };

  const sendObject = async (
    request: IncomingMessage,
    response: ServerResponse,
    stored: Stored,
    headers: Record<string, string>,
  ) => {
    const data = await readFile(stored.file);
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? "");
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), data.length - 1) : data.length - 1;
      response.writeHead(206, { ...headers, "content-range": `bytes ${start}-${end}/${data.length}` });
      response.end(data.subarray(start, end + 1));
      return;
    }
    response.writeHead(200, headers);
    response.end(data);
  };

  const signedGet = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const [, bucket, ...nameParts] = url.pathname.split("/");
    const name = nameParts.map(decodeURIComponent).join("/");
    const query = Object.fromEntries(url.searchParams);
    const signature = query["X-Goog-Signature"] ?? "";
    delete query["X-Goog-Signature"];
    const canonicalQuery = Object.keys(query)
      .sort()
      .map((key) => `${strictEncode(key)}=${strictEncode(query[key] as string)}`)
      .join("&");
    const canonicalRequest = [
      "GET",
      url.pathname,
      canonicalQuery,
      `host:${request.headers.host}\n`,
      "host",
      "UNSIGNED-PAYLOAD",
    ].join("\n");
    const stamp = query["X-Goog-Date"] ?? "";
    const scope = (query["X-Goog-Credential"] ?? "").split("/").slice(1).join("/");
    const stringToSign = [
      "GOOG4-RSA-SHA256",
      stamp,
      scope,
      createHash("sha256").update(canonicalRequest).digest("hex"),
    ].join("\n");
    const valid = createVerify("RSA-SHA256")
      .update(stringToSign)
      .verify(publicKey, Buffer.from(signature, "hex"));
    const issued = Date.parse(
      stamp.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"),
    );
    const expired = issued + Number(query["X-Goog-Expires"] ?? 0) * 1000 < Date.now();
    if (!valid || expired || bucket !== options.bucket)
      return googleError(response, 403, "SignatureDoesNotMatch");
    const stored = objects.get(name);
    if (!stored) return googleError(response, 404, "No such object");
    await sendObject(request, response, stored, {
      "content-type": query["response-content-type"] ?? "application/octet-stream",
      ...(query["response-content-disposition"]
        ? { "content-disposition": query["response-content-disposition"] }
        : {}),
      "accept-ranges": "bytes",
    });
  };

  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? "/", "http://fake");
      if (url.pathname === "/token" && request.method === "POST") {
        const form = new URLSearchParams((await bodyOf(request)).toString());
        if (
          form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer" ||
          !verifyJwt(form.get("assertion") ?? "")
        ) {
          response.writeHead(400, { "content-type": "application/json" });
          response.end(
            JSON.stringify({ error: "invalid_grant", error_description: "Invalid JWT Signature." }),
          );
          return;
        }
        const token = randomUUID();
        tokens.add(token);
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ access_token: token, expires_in: 3599, token_type: "Bearer" }));
        return;
      }
      if (url.searchParams.has("X-Goog-Signature")) return await signedGet(request, response, url);
      const session = url.pathname.startsWith("/session/") ? sessions.get(url.pathname.slice(9)) : undefined;
      if (session) {
        const id = url.pathname.slice(9);
        if (request.method === "DELETE") {
          sessions.delete(id);
          await rm(session.file, { force: true });
          response.writeHead(499);
          response.end();
          return;
        }
        const chunk = await bodyOf(request);
        const range = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+|\*)$/.exec(request.headers["content-range"] ?? "");
        if (!range || (range[1] !== undefined && Number(range[1]) !== session.received)) {
          return googleError(response, 400, "Invalid Content-Range");
        }
        await writeFile(session.file, chunk, { flag: "a" });
        session.received += chunk.length;
        if (range[3] === "*") {
          response.writeHead(308, { range: `bytes=0-${session.received - 1}` });
          response.end();
          return;
        }
        sessions.delete(id);
        const size = (await stat(session.file)).size;
        objects.set(session.name, { file: session.file, size, updated: new Date() });
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ name: session.name, bucket: options.bucket, size: String(size) }));
        return;
      }
      const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
      if (!tokens.has(token)) return googleError(response, 401, "Invalid Credentials");
      const bucketPath = `/storage/v1/b/${options.bucket}`;
      if (url.pathname === `/upload${bucketPath}/o` && url.searchParams.get("uploadType") === "resumable") {
        const id = randomUUID();
        const name = url.searchParams.get("name") ?? "";
        sessions.set(id, { name, file: path.join(directory, id), received: 0 });
        await writeFile(path.join(directory, id), Buffer.alloc(0));
        response.writeHead(200, { location: `http://${request.headers.host}/session/${id}` });
        response.end();
        return;
      }
      if (!url.pathname.startsWith(bucketPath))
        return googleError(response, 404, "The specified bucket does not exist.");
      if (url.pathname === bucketPath) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ name: options.bucket, kind: "storage#bucket" }));
        return;
      }
      if (url.pathname === `${bucketPath}/o`) {
        const prefix = url.searchParams.get("prefix") ?? "";
        const max = Number(url.searchParams.get("maxResults") ?? 1000);
        const after = url.searchParams.get("pageToken") ?? "";
        const names = [...objects.keys()].filter((name) => name.startsWith(prefix) && name > after).sort();
        const page = names.slice(0, max);
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            items: page.map((name) => {
              const stored = objects.get(name) as Stored;
              return { name, size: String(stored.size), updated: stored.updated.toISOString() };
            }),
            ...(names.length > max ? { nextPageToken: page.at(-1) } : {}),
          }),
        );
        return;
      }
      if (request.method === "POST" && url.pathname.endsWith("/compose")) {
        const name = decodeURIComponent(url.pathname.slice(`${bucketPath}/o/`.length, -"/compose".length));
        const { sourceObjects } = JSON.parse((await bodyOf(request)).toString()) as {
          sourceObjects: { name: string }[];
        };
        if (sourceObjects.length === 0 || sourceObjects.length > 32)
          return googleError(response, 400, "A compose takes 1 to 32 source objects.");
        const sources = sourceObjects.map((source) => objects.get(source.name));
        if (sources.some((source) => !source))
          return googleError(response, 404, "A source object is missing.");
        const joined = Buffer.concat(
          await Promise.all(sources.map((source) => readFile((source as Stored).file))),
        );
        const file = path.join(directory, randomUUID());
        await writeFile(file, joined);
        objects.set(name, { file, size: joined.length, updated: new Date() });
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ name, bucket: options.bucket, size: String(joined.length) }));
        return;
      }
      const name = decodeURIComponent(url.pathname.slice(`${bucketPath}/o/`.length));
      const stored = objects.get(name);
      if (request.method === "DELETE") {
        if (!stored) return googleError(response, 404, "No such object");
        objects.delete(name);
        await rm(stored.file, { force: true });
        response.writeHead(204);
        response.end();
        return;
      }
      if (!stored) return googleError(response, 404, `No such object: ${options.bucket}/${name}`);
      if (url.searchParams.get("alt") === "media") {
        return await sendObject(request, response, stored, { "content-type": "application/octet-stream" });
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ name, size: String(stored.size), updated: stored.updated.toISOString() }),
      );
    } catch (error) {
      googleError(response, 500, (error as Error).message);
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    bucket: options.bucket,
    objectNames: () => [...objects.keys()].sort(),
    openSessions: () => sessions.size,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
