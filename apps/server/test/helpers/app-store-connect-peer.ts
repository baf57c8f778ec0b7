import { createHash, type KeyObject, randomUUID } from "node:crypto";
import { closeSync, createReadStream, openSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  authenticate,
  type Json,
  notFound,
  Refusal,
  readBuildUploadRequest,
  readJson,
  readUploadFileRequest,
  send,
  writeSlice,
} from "./app-store-connect-peer-parts.ts";
import { tempDir } from "./temp-dirs.ts";

/**
 * A loopback fake of exactly the App Store Connect API endpoints Tarmac calls, checking what
 * Apple checks: each request's ES256 token against the key's public half (kid, issuer, audience
 * `appstoreconnect-v1`, expiry, at most 20 minutes of life), the slices PUT against the
 * operations it handed out (offset and length), and the MD5 sent when the file is marked
 * uploaded against the bytes received. It can fail on purpose: a revoked key, a build number
 * already used, a 500 on a chosen slice, processing that fails.
 */
interface PeerKey {
  issuerId: string;
  publicKey: KeyObject;
  revoked: boolean;
}

interface PeerApp {
  id: string;
  bundleId: string;
  name: string;
  /** Build numbers the store has, oldest first. */
  builds: { id: string; version: string }[];
}

interface Operation {
  offset: number;
  length: number;
  received: boolean;
}

interface BuildUpload {
  id: string;
  appId: string;
  version: string;
  buildNumber: string;
  state: "AWAITING_UPLOAD" | "PROCESSING" | "COMPLETE" | "FAILED";
  pollsUntilComplete: number;
  file?: { id: string; name: string; size: number; path: string; operations: Operation[] };
}

export class AppStoreConnectPeer {
  readonly keys = new Map<string, PeerKey>();
  readonly apps: PeerApp[] = [];
  readonly uploads = new Map<string, BuildUpload>();
  readonly betaGroups = new Map<string, Set<string>>();
  readonly whatToTest = new Map<string, string>();
  /** Every request: method and path (with query). */
  readonly requests: { method: string; url: string }[] = [];
  /** Slice indexes that answer 500 this many more times. */
  readonly failingSlices = new Map<number, number>();
  /** Slice size the fake hands out (Apple decides it; tests make it small). */
  sliceBytes = 64 * 1024;
  /** Polls of a build upload before its processing completes. */
  processingPolls = 1;
  /** Processing of the next upload fails with this error. */
  processingError: string | null = null;
  private server: Server | null = null;
  private baseUrl = "";
  private readonly dir = tempDir("asc-peer");

  addKey(keyId: string, issuerId: string, publicKey: KeyObject): void {
    this.keys.set(keyId, { issuerId, publicKey, revoked: false });
  }

  revokeKey(keyId: string): void {
    const key = this.keys.get(keyId);
    if (key) key.revoked = true;
  }

  addApp(bundleId: string, name: string, buildNumbers: string[] = []): PeerApp {
    const app: PeerApp = {
      id: String(1_000_000_000 + this.apps.length),
      bundleId,
      name,
      builds: buildNumbers.map((version) => ({ id: randomUUID(), version })),
    };
    this.apps.push(app);
    return app;
  }

  addBetaGroup(id: string): void {
    this.betaGroups.set(id, new Set());
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        const refusal =
          error instanceof Refusal
            ? error
            : new Refusal(500, "UNEXPECTED_ERROR", "Unexpected error", String(error));
        send(response, refusal.status, {
          errors: [
            {
              status: String(refusal.status),
              code: refusal.code,
              title: refusal.title,
              detail: refusal.detail,
            },
          ],
        });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The MD5 of the bytes received for an upload's file, in offset order. */
  async receivedMd5(uploadId: string): Promise<string> {
    const file = this.uploads.get(uploadId)?.file;
    if (!file) throw new Error("no file");
    const hash = createHash("md5");
    for await (const chunk of createReadStream(file.path)) hash.update(chunk as Buffer);
    return hash.digest("hex");
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", this.baseUrl);
    this.requests.push({ method: request.method ?? "", url: `${url.pathname}${url.search}` });
    const slice = /^\/slices\/([^/]+)\/(\d+)$/.exec(url.pathname);
    // Slice URLs are signed by Apple in the URL itself, as the real ones are: no bearer token.
    if (slice && request.method === "PUT")
      return this.putSlice(request, response, slice[1] ?? "", Number(slice[2]));
    await authenticate(request, this.keys);
    const body = request.method === "GET" ? null : await readJson(request);
    const route = `${request.method} ${url.pathname}`;
    if (route === "GET /v1/apps") return send(response, 200, this.listApps(url));
    if (route === "GET /v1/builds") return send(response, 200, this.listBuilds(url));
    if (route === "POST /v1/buildUploads") return send(response, 201, this.createBuildUpload(body));
    if (route === "POST /v1/buildUploadFiles") return send(response, 201, this.createBuildUploadFile(body));
    const file = /^\/v1\/buildUploadFiles\/([^/]+)$/.exec(url.pathname);
    if (file && request.method === "PATCH")
      return send(response, 200, await this.markUploaded(file[1] ?? "", body));
    const upload = /^\/v1\/buildUploads\/([^/]+)$/.exec(url.pathname);
    if (upload && request.method === "GET") return send(response, 200, this.readBuildUpload(upload[1] ?? ""));
    if (route === "POST /v1/betaBuildLocalizations") return send(response, 201, this.localize(body));
    const groups = /^\/v1\/builds\/([^/]+)\/relationships\/betaGroups$/.exec(url.pathname);
    if (groups && request.method === "POST") {
      this.addToGroups(groups[1] ?? "", body);
      response.writeHead(204).end();
      return;
    }
    throw notFound(`No route ${route}`);
  }

  private appById(id: string): PeerApp {
    const app = this.apps.find((entry) => entry.id === id);
    if (!app) throw new Refusal(404, "NOT_FOUND", "The specified resource does not exist", `No app ${id}.`);
    return app;
  }

  private listApps(url: URL): Json {
    const bundleId = url.searchParams.get("filter[bundleId]");
    const apps = this.apps.filter((app) => !bundleId || app.bundleId === bundleId);
    const limit = Number(url.searchParams.get("limit") ?? 50);
    return {
      data: apps.slice(0, limit).map((app) => ({
        type: "apps",
        id: app.id,
        attributes: { bundleId: app.bundleId, name: app.name },
      })),
    };
  }

  private listBuilds(url: URL): Json {
    const app = this.appById(url.searchParams.get("filter[app]") ?? "");
    const version = url.searchParams.get("filter[version]");
    let builds = app.builds.filter((build) => !version || build.version === version);
    if (url.searchParams.get("sort") === "-uploadedDate") builds = [...builds].reverse();
    const limit = Number(url.searchParams.get("limit") ?? 50);
    return {
      data: builds
        .slice(0, limit)
        .map((build) => ({ type: "builds", id: build.id, attributes: { version: build.version } })),
    };
  }

  private createBuildUpload(body: Json | null): Json {
    const { appId, version, buildNumber } = readBuildUploadRequest(body);
    const app = this.appById(appId);
    const taken =
      app.builds.some((build) => build.version === buildNumber) ||
      [...this.uploads.values()].some(
        (upload) => upload.appId === app.id && upload.buildNumber === buildNumber,
      );
    if (taken) {
      throw new Refusal(
        409,
        "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
        "The provided entity includes an attribute with a value that has already been used",
        `The bundle version ${buildNumber} has already been used.`,
      );
    }
    const upload: BuildUpload = {
      id: randomUUID(),
      appId: app.id,
      version,
      buildNumber,
      state: "AWAITING_UPLOAD",
      pollsUntilComplete: this.processingPolls,
    };
    this.uploads.set(upload.id, upload);
    return { data: { type: "buildUploads", id: upload.id, attributes: { state: { state: upload.state } } } };
  }

  private createBuildUploadFile(body: Json | null): Json {
    const { buildUploadId, fileName, fileSize } = readUploadFileRequest(body);
    const upload = this.uploads.get(buildUploadId);
    if (!upload) throw notFound("No such build upload.");
    const id = randomUUID();
    const filePath = path.join(this.dir, id);
    closeSync(openSync(filePath, "w"));
    const operations: Operation[] = [];
    for (let offset = 0; offset < fileSize; offset += this.sliceBytes) {
      operations.push({ offset, length: Math.min(this.sliceBytes, fileSize - offset), received: false });
    }
    upload.file = { id, name: String(fileName), size: fileSize, path: filePath, operations };
    return {
      data: {
        type: "buildUploadFiles",
        id,
        attributes: {
          uploadOperations: operations.map((operation, index) => ({
            method: "PUT",
            url: `${this.baseUrl}/slices/${id}/${index}`,
            offset: operation.offset,
            length: operation.length,
            requestHeaders: [{ name: "Content-Type", value: "application/octet-stream" }],
          })),
        },
      },
    };
  }

  private fileById(id: string) {
    for (const upload of this.uploads.values())
      if (upload.file?.id === id) return { upload, file: upload.file };
    throw notFound("No such file.");
  }

  private async putSlice(
    request: IncomingMessage,
    response: ServerResponse,
    fileId: string,
    index: number,
  ): Promise<void> {
    const { file } = this.fileById(fileId);
    const operation = file.operations[index];
    if (!operation) throw new Refusal(404, "NOT_FOUND", "Not found", "No such slice.");
    const failures = this.failingSlices.get(index) ?? 0;
    if (failures > 0) {
      this.failingSlices.set(index, failures - 1);
      request.resume();
      throw new Refusal(
        500,
        "UNEXPECTED_ERROR",
        "An unexpected error occurred on the server side.",
        "Try again.",
      );
    }
    await writeSlice(request, file.path, operation.offset, operation.length);
    operation.received = true;
    response.writeHead(200).end();
  }

  private async markUploaded(fileId: string, body: Json | null): Promise<Json> {
    const { upload, file } = this.fileById(fileId);
    const attributes = ((body?.data as Json | undefined)?.attributes ?? {}) as {
      uploaded?: boolean;
      sourceFileChecksums?: { file?: { hash?: string; algorithm?: string } };
    };
    const missing = file.operations.find((operation) => !operation.received);
    if (attributes.uploaded !== true)
      throw new Refusal(409, "ENTITY_ERROR", "Invalid", "uploaded must be true");
    if (missing)
      throw new Refusal(
        409,
        "ENTITY_ERROR",
        "Upload incomplete",
        `The slice at ${missing.offset} was not received.`,
      );
    const sent = attributes.sourceFileChecksums?.file;
    const actual = await this.receivedMd5(upload.id);
    if (sent?.algorithm !== "MD5" || sent.hash !== actual) {
      throw new Refusal(
        409,
        "ENTITY_ERROR.CHECKSUM",
        "Checksum mismatch",
        `The file's MD5 is ${actual}, not ${sent?.hash}.`,
      );
    }
    upload.state = "PROCESSING";
    return { data: { type: "buildUploadFiles", id: fileId, attributes: { uploaded: true } } };
  }

  private readBuildUpload(id: string): Json {
    const upload = this.uploads.get(id);
    if (!upload) throw notFound("No such build upload.");
    const errors: Json[] = [];
    if (upload.state === "PROCESSING") {
      if (this.processingError) {
        upload.state = "FAILED";
        errors.push({ code: "90062", description: this.processingError });
      } else if (upload.pollsUntilComplete-- <= 0) {
        upload.state = "COMPLETE";
        this.appById(upload.appId).builds.push({ id: `build-${upload.id}`, version: upload.buildNumber });
      }
    }
    return { data: { type: "buildUploads", id, attributes: { state: { state: upload.state, errors } } } };
  }

  private buildById(id: string) {
    const build = this.apps.flatMap((app) => app.builds).find((entry) => entry.id === id);
    if (!build) throw notFound(`No build ${id}.`);
    return build;
  }

  private localize(body: Json | null): Json {
    const data = (body?.data ?? {}) as {
      attributes?: { locale?: string; whatsNew?: string };
      relationships?: { build?: { data?: { id?: string } } };
    };
    const build = this.buildById(data.relationships?.build?.data?.id ?? "");
    this.whatToTest.set(build.id, data.attributes?.whatsNew ?? "");
    return { data: { type: "betaBuildLocalizations", id: randomUUID(), attributes: data.attributes } };
  }

  private addToGroups(buildId: string, body: Json | null): void {
    const build = this.buildById(buildId);
    for (const entry of (body?.data ?? []) as { type?: string; id?: string }[]) {
      const group = this.betaGroups.get(entry.id ?? "");
      if (!group || entry.type !== "betaGroups")
        throw new Refusal(
          404,
          "NOT_FOUND",
          "The specified resource does not exist",
          `No beta group ${entry.id}.`,
        );
      group.add(build.id);
    }
  }
}
