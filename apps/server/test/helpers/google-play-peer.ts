import { createHash, type Hash, type KeyObject, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  drain,
  GoogleError,
  type Json,
  readJson,
  readText,
  send,
  verifyAssertion,
} from "./google-play-peer-parts.ts";

/**
 * A loopback fake of exactly the Google endpoints Tarmac calls: the OAuth token endpoint (the
 * service account's RS256 assertion checked against the key's public half, its audience, scope
 * and expiry) and the Play Developer API's edits (insert, bundles list and resumable upload,
 * tracks update, commit, delete), checking what Google checks: the bearer token, the package
 * and the account's access to it, chunk offsets and 256 KiB multiples, the bundle's version code
 * not used before, and the order of the edit calls. It can fail on purpose: a disabled account,
 * a 503 halfway through an upload (after taking half the chunk).
 */
interface PeerAccount {
  publicKey: KeyObject;
  disabled: boolean;
}

interface PeerApp {
  packageName: string;
  /** Service accounts that may release it. */
  releasers: Set<string>;
  versionCodes: number[];
  /** The version code the next uploaded bundle turns out to have (the fake does not read AABs). */
  nextVersionCode: number;
  /** Releases committed: track and release JSON. */
  committed: { track: string; release: Record<string, unknown> }[];
}

interface Edit {
  id: string;
  packageName: string;
  uploaded: number[];
  tracks: { track: string; release: Record<string, unknown> }[];
  /** The calls made on the edit, in order: "upload", "tracks", "commit". */
  steps: string[];
  open: boolean;
}

interface Session {
  id: string;
  edit: Edit;
  size: number;
  received: number;
  hash: Hash;
  sha1: Hash;
}

const granularity = 256 * 1024;

export class GooglePlayPeer {
  readonly accounts = new Map<string, PeerAccount>();
  readonly apps = new Map<string, PeerApp>();
  readonly edits = new Map<string, Edit>();
  readonly sessions = new Map<string, Session>();
  readonly tokens = new Map<string, string>();
  readonly requests: { method: string; url: string; range?: string }[] = [];
  /** Chunk numbers (0-based, per session) that take half their bytes and then answer 503, once each. */
  readonly failingChunks = new Set<number>();
  private readonly chunkCounts = new Map<string, number>();
  private server: Server | null = null;
  baseUrl = "";

  addServiceAccount(email: string, publicKey: KeyObject): void {
    this.accounts.set(email, { publicKey, disabled: false });
  }

  disableServiceAccount(email: string): void {
    const account = this.accounts.get(email);
    if (account) account.disabled = true;
  }

  addApp(packageName: string, releasers: string[], versionCodes: number[] = []): PeerApp {
    const app: PeerApp = {
      packageName,
      releasers: new Set(releasers),
      versionCodes,
      nextVersionCode: Math.max(0, ...versionCodes) + 1,
      committed: [],
    };
    this.apps.set(packageName, app);
    return app;
  }

  get tokenUrl(): string {
    return `${this.baseUrl}/token`;
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        const failure = error instanceof GoogleError ? error : new GoogleError(500, String(error));
        const body = failure.oauth
          ? { error: "invalid_grant", error_description: failure.message }
          : { error: { code: failure.status, message: failure.message, status: "FAILED_PRECONDITION" } };
        send(response, failure.status, body);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", this.baseUrl);
    const range = request.headers["content-range"];
    this.requests.push({
      method: request.method ?? "",
      url: `${url.pathname}${url.search}`,
      ...(range ? { range } : {}),
    });
    if (request.method === "POST" && url.pathname === "/token")
      return send(response, 200, await this.token(request));
    const email = this.authenticate(request);
    const session = /^\/upload\/session\/([^/]+)$/.exec(url.pathname);
    if (session && request.method === "PUT") return this.putChunk(request, response, session[1] ?? "");
    const upload = /^\/upload\/androidpublisher\/v3\/applications\/([^/]+)\/edits\/([^/]+)\/bundles$/.exec(
      url.pathname,
    );
    if (upload && request.method === "POST") {
      if (url.searchParams.get("uploadType") !== "resumable")
        throw new GoogleError(400, "uploadType must be resumable");
      const edit = this.editOf(email, upload[1] ?? "", upload[2] ?? "");
      const size = Number(request.headers["x-upload-content-length"]);
      if (!Number.isSafeInteger(size) || size <= 0)
        throw new GoogleError(400, "X-Upload-Content-Length is required");
      await drain(request);
      const id = randomUUID();
      this.sessions.set(id, {
        id,
        edit,
        size,
        received: 0,
        hash: createHash("sha256"),
        sha1: createHash("sha1"),
      });
      response.writeHead(200, { location: `${this.baseUrl}/upload/session/${id}` }).end();
      return;
    }
    const api =
      /^\/androidpublisher\/v3\/applications\/([^/]+)\/edits(?:\/([^/:]+))?(?::commit|\/bundles|\/tracks\/([^/]+))?$/.exec(
        url.pathname,
      );
    if (!api) throw new GoogleError(404, `No route ${request.method} ${url.pathname}`);
    const packageName = decodeURIComponent(api[1] ?? "");
    const body = request.method === "GET" || request.method === "DELETE" ? null : await readJson(request);
    if (!api[2] && request.method === "POST") return send(response, 200, this.insertEdit(email, packageName));
    const edit = this.editOf(email, packageName, api[2] ?? "");
    if (url.pathname.endsWith(":commit") && request.method === "POST")
      return send(response, 200, this.commit(edit));
    if (url.pathname.endsWith("/bundles") && request.method === "GET") {
      const app = this.apps.get(packageName) as PeerApp;
      return send(response, 200, {
        kind: "androidpublisher#bundlesListResponse",
        bundles: [...app.versionCodes, ...edit.uploaded].map((versionCode) => ({ versionCode })),
      });
    }
    if (api[3] && request.method === "PUT")
      return send(response, 200, this.updateTrack(edit, decodeURIComponent(api[3]), body));
    if (request.method === "DELETE") {
      edit.open = false;
      response.writeHead(204).end();
      return;
    }
    throw new GoogleError(404, `No route ${request.method} ${url.pathname}`);
  }

  private async token(request: IncomingMessage): Promise<Json> {
    const email = await verifyAssertion(await readText(request), this.accounts);
    const token = `ya29.${randomBytes(24).toString("hex")}`;
    this.tokens.set(token, email);
    return { access_token: token, expires_in: 3599, token_type: "Bearer" };
  }

  private authenticate(request: IncomingMessage): string {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    const email = this.tokens.get(token);
    if (!email) throw new GoogleError(401, "Request had invalid authentication credentials.");
    return email;
  }

  private appFor(email: string, packageName: string): PeerApp {
    const app = this.apps.get(packageName);
    if (!app) throw new GoogleError(404, `Package not found: ${packageName}.`);
    if (!app.releasers.has(email)) throw new GoogleError(403, "The caller does not have permission");
    return app;
  }

  private insertEdit(email: string, packageName: string): Json {
    this.appFor(email, packageName);
    const edit: Edit = {
      id: randomUUID().replaceAll("-", ""),
      packageName,
      uploaded: [],
      tracks: [],
      steps: [],
      open: true,
    };
    this.edits.set(edit.id, edit);
    return { id: edit.id, expiryTimeSeconds: String(Math.floor(Date.now() / 1000) + 3600) };
  }

  private editOf(email: string, packageName: string, id: string): Edit {
    this.appFor(email, packageName);
    const edit = this.edits.get(id);
    if (!edit || edit.packageName !== packageName || !edit.open)
      throw new GoogleError(404, `Edit ${id} not found or already closed.`);
    return edit;
  }

  private async putChunk(request: IncomingMessage, response: ServerResponse, id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) throw new GoogleError(404, "No such upload session");
    const range = String(request.headers["content-range"] ?? "");
    const status = /^bytes \*\/(\d+)$/.exec(range);
    if (status) {
      await drain(request);
      return this.answerSession(response, session);
    }
    const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    if (!match) throw new GoogleError(400, `Bad Content-Range ${range}`);
    const [start, end, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const length = end - start + 1;
    const last = end + 1 === session.size;
    if (total !== session.size || start !== session.received || (!last && length % granularity !== 0)) {
      await drain(request);
      throw new GoogleError(
        400,
        `Content-Range ${range} does not continue at ${session.received} of ${session.size} in 256 KiB multiples`,
      );
    }
    const count = this.chunkCounts.get(id) ?? 0;
    this.chunkCounts.set(id, count + 1);
    const failHalfway = this.failingChunks.delete(count);
    let taken = 0;
    for await (const chunk of request) {
      let piece = chunk as Buffer;
      if (failHalfway) piece = piece.subarray(0, Math.max(0, Math.floor(length / 2) - taken));
      session.hash.update(piece);
      session.sha1.update(piece);
      taken += piece.length;
    }
    session.received += taken;
    if (failHalfway) throw new GoogleError(503, "Backend Error");
    if (taken !== length) throw new GoogleError(400, "The body does not match Content-Range");
    return this.answerSession(response, session);
  }

  private answerSession(response: ServerResponse, session: Session): void {
    if (session.received < session.size) {
      const headers = session.received > 0 ? { range: `bytes=0-${session.received - 1}` } : {};
      response.writeHead(308, headers).end();
      return;
    }
    const app = this.apps.get(session.edit.packageName) as PeerApp;
    const versionCode = app.nextVersionCode;
    if (app.versionCodes.includes(versionCode) || session.edit.uploaded.includes(versionCode)) {
      throw new GoogleError(403, `APK specifies a version code that has already been used: ${versionCode}.`);
    }
    if (!session.edit.steps.includes("upload")) session.edit.steps.push("upload");
    session.edit.uploaded.push(versionCode);
    this.sessions.delete(session.id);
    send(response, 200, {
      versionCode,
      sha1: session.sha1.copy().digest("hex"),
      sha256: session.hash.copy().digest("hex"),
    });
  }

  private updateTrack(edit: Edit, track: string, body: Json | null): Json {
    if (!["internal", "alpha", "beta", "production"].includes(track) || body?.track !== track) {
      throw new GoogleError(400, `Track ${track} is not valid here`);
    }
    const releases = (body.releases ?? []) as Record<string, unknown>[];
    const app = this.apps.get(edit.packageName) as PeerApp;
    for (const release of releases) {
      for (const code of (release.versionCodes ?? []) as string[]) {
        if (!edit.uploaded.includes(Number(code)) && !app.versionCodes.includes(Number(code))) {
          throw new GoogleError(400, `Version code ${code} is not in this edit; upload it first`);
        }
      }
      const fraction = release.userFraction;
      if (
        release.status === "inProgress" &&
        !(typeof fraction === "number" && fraction > 0 && fraction < 1)
      ) {
        throw new GoogleError(400, "A staged rollout needs a userFraction between 0 and 1");
      }
    }
    edit.steps.push("tracks");
    edit.tracks.push(...releases.map((release) => ({ track, release })));
    return { track, releases };
  }

  private commit(edit: Edit): Json {
    if (edit.uploaded.length > 0 && !edit.steps.includes("tracks")) {
      throw new GoogleError(400, "The uploaded bundle is on no track; update a track before committing");
    }
    edit.steps.push("commit");
    edit.open = false;
    const app = this.apps.get(edit.packageName) as PeerApp;
    app.versionCodes.push(...edit.uploaded);
    app.committed.push(...edit.tracks);
    app.nextVersionCode = Math.max(...app.versionCodes, 0) + 1;
    return { id: edit.id };
  }
}
