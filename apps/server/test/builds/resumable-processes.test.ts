/** Resumable uploads across web processes, and what a finish reads back from storage. */
import { type Readable, Transform } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { block, mib, zipParts } from "../../bench/upload-bench.ts";
import { createModules } from "../../src/app.ts";
import { buildApp } from "../../src/process-roles.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { quietLogger } from "../helpers/quiet-logger.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import {
  finishByPreload,
  idOf,
  partBytes,
  resumableClient,
  sha256,
  tusMetadata,
} from "./resumable-helpers.ts";

let t: TestApp;
/** A second web process: the same database and storage, its own memory. */
let other: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_RESUMABLE_PART_BYTES: String(partBytes) });
  other = await buildApp(t.platform, createModules(t.platform), quietLogger);
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await t.close();
});

const { patch } = resumableClient(() => t);

/** A 6 MiB Windows .zip: the inspector reads only its end (the central directory). */
const zip = zipParts(6);
const bytes = Buffer.concat([zip.head, ...Array.from({ length: zip.sizeMib }, () => block), zip.tail]);

/** Counts the bytes storage reads hand out while `work` runs. */
async function bytesReadDuring(work: () => Promise<void>): Promise<number> {
  const storage = t.platform.storage;
  const read = storage.read.bind(storage);
  let total = 0;
  const spy = vi.spyOn(storage, "read").mockImplementation(async (key, range) => {
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        total += chunk.length;
        done(null, chunk);
      },
    });
    return (await read(key, range)).pipe(counter) as Readable;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return total;
}

async function started(app: FastifyInstance, token: string, organization: number) {
  const created = await app.inject({
    method: "POST",
    url: "/api/uploads/",
    headers: {
      "tus-resumable": "1.0.0",
      authorization: `Token ${token}`,
      "upload-length": String(bytes.length),
      "upload-metadata": tusMetadata({ filename: "Demo-1.0.0.zip", organization }),
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.headers.location as string;
}

function patchOn(app: FastifyInstance, token: string, url: string, offset: number, end: number) {
  return app.inject({
    method: "PATCH",
    url,
    headers: {
      "tus-resumable": "1.0.0",
      "content-type": "application/offset+octet-stream",
      authorization: `Token ${token}`,
      "upload-offset": String(offset),
    },
    payload: bytes.subarray(offset, end),
  });
}

function finishOn(app: FastifyInstance, token: string, organization: number, url: string) {
  return app.inject({
    method: "POST",
    url: "/api/applicationadd/?preload=1",
    headers: { authorization: `Token ${token}`, "content-type": "multipart/form-data; boundary=x" },
    payload: [
      `--x\r\nContent-Disposition: form-data; name="organization"\r\n\r\n${organization}\r\n`,
      `--x\r\nContent-Disposition: form-data; name="app_type"\r\n\r\n2\r\n`,
      `--x\r\nContent-Disposition: form-data; name="upload_id"\r\n\r\n${idOf(url)}\r\n--x--\r\n`,
    ].join(""),
  });
}

describe("resumable uploads over several processes", () => {
  it("finishes without reading the file back where one process received every byte", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = await started(t.app, owner.token, organization.id);
    expect((await patch(owner.token, url, 0, bytes.subarray(0, 3 * mib))).statusCode).toBe(204);
    expect((await patch(owner.token, url, 3 * mib, bytes.subarray(3 * mib))).statusCode).toBe(204);
    let answer: Awaited<ReturnType<typeof finishOn>> | undefined;
    const read = await bytesReadDuring(async () => {
      answer = await finishOn(t.app, owner.token, organization.id, url);
    });
    expect(answer?.statusCode, answer?.body).toBe(200);
    expect(answer?.json()).toMatchObject({ sha256: sha256(bytes), file_size: bytes.length });
    // Only what the inspector looks at (the zip's end), not the file.
    expect(read).toBeLessThan(mib);
    console.info(`finish on the receiving process read ${read} of ${bytes.length} bytes`);
  });

  it("takes the bytes on any process, and a finish elsewhere reads the file once", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = await started(other, owner.token, organization.id);
    // Half to one process, the rest to the other: each sees the offset the other left.
    expect((await patchOn(other, owner.token, url, 0, 3 * mib)).statusCode).toBe(204);
    const rest = await patchOn(t.app, owner.token, url, 3 * mib, bytes.length);
    expect(rest.statusCode, rest.body).toBe(204);
    expect(rest.headers["upload-offset"]).toBe(String(bytes.length));
    let answer: Awaited<ReturnType<typeof finishOn>> | undefined;
    const read = await bytesReadDuring(async () => {
      answer = await finishOn(other, owner.token, organization.id, url);
    });
    expect(answer?.statusCode, answer?.body).toBe(200);
    expect(answer?.json()).toMatchObject({ sha256: sha256(bytes), file_size: bytes.length });
    expect(read).toBeGreaterThanOrEqual(bytes.length);
    expect(read).toBeLessThan(bytes.length + mib);
    console.info(`finish on another process read ${read} of ${bytes.length} bytes`);
    expect(
      (await finishByPreload(t, owner.token, { organization: organization.id, upload_id: idOf(url) }))
        .statusCode,
    ).toBe(404);
  });
});
