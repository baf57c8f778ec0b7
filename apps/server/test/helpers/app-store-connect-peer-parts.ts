import type { KeyObject } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeProtectedHeader, jwtVerify } from "jose";

/** What the App Store Connect fake checks a request's token against, and how it refuses. */
export type Json = Record<string, unknown>;

export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const notAuthorized = (detail: string) =>
  new Refusal(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.", detail);

/**
 * Apple's checks of a bearer token: ES256, a known and unrevoked key id, its issuer, the audience
 * appstoreconnect-v1, not expired, and at most 20 minutes of life.
 */
export async function authenticate(
  request: IncomingMessage,
  keys: Map<string, { issuerId: string; publicKey: KeyObject; revoked: boolean }>,
): Promise<void> {
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
  if (!token) throw notAuthorized("No bearer token.");
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== "ES256") throw notAuthorized("The token must be signed with ES256.");
    kid = header.kid;
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw notAuthorized("The token is not a JWT.");
  }
  const key = kid ? keys.get(kid) : undefined;
  if (!key || key.revoked) throw notAuthorized("The key is unknown or has been revoked.");
  try {
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: ["ES256"],
      audience: "appstoreconnect-v1",
      issuer: key.issuerId,
    });
    const life = (payload.exp ?? 0) - (payload.iat ?? Math.floor(Date.now() / 1000));
    if (!payload.exp || life > 20 * 60) throw notAuthorized("Tokens may live at most 20 minutes.");
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw notAuthorized(`The token was refused: ${(error as Error).message}`);
  }
}

export async function readJson(request: IncomingMessage): Promise<Json | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Json) : null;
}

export function send(response: ServerResponse, status: number, body: Json): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export const notFound = (detail: string) =>
  new Refusal(404, "NOT_FOUND", "The specified resource does not exist", detail);

/** The attributes a buildUploads POST must carry, as Apple requires them. */
export function readBuildUploadRequest(body: Json | null) {
  const data = (body?.data ?? {}) as {
    type?: string;
    attributes?: Json;
    relationships?: { app?: { data?: { id?: string } } };
  };
  if (data.type !== "buildUploads")
    throw new Refusal(409, "ENTITY_ERROR.INCORRECT_TYPE", "Incorrect type", "type must be buildUploads");
  const attributes = data.attributes ?? {};
  const buildNumber = String(attributes.cfBundleVersion ?? "");
  const version = String(attributes.cfBundleShortVersionString ?? "");
  if (!buildNumber || !version || attributes.platform !== "IOS") {
    const detail = "cfBundleVersion, cfBundleShortVersionString and platform are required";
    throw new Refusal(409, "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "A required attribute is missing", detail);
  }
  return { appId: data.relationships?.app?.data?.id ?? "", version, buildNumber };
}

/** The attributes a buildUploadFiles POST must carry: an IPA asset with its name and size. */
export function readUploadFileRequest(body: Json | null) {
  const data = (body?.data ?? {}) as {
    attributes?: Json;
    relationships?: { buildUpload?: { data?: { id?: string } } };
  };
  const { fileName, fileSize, uti, assetType } = data.attributes ?? {};
  const valid =
    typeof fileSize === "number" && fileSize > 0 && uti === "com.apple.ipa" && assetType === "ASSET";
  if (!valid || !fileName) {
    const detail = "fileName, fileSize, uti com.apple.ipa and assetType ASSET are required";
    throw new Refusal(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid", detail);
  }
  return {
    buildUploadId: data.relationships?.buildUpload?.data?.id ?? "",
    fileName: String(fileName),
    fileSize,
  };
}

/** Writes a slice's body at its offset; its length must be exactly the operation's. */
export async function writeSlice(request: IncomingMessage, filePath: string, offset: number, length: number) {
  const declared = Number(request.headers["content-length"]);
  if (declared !== length) {
    request.resume();
    const detail = `The slice at ${offset} is ${length} bytes, not ${declared}.`;
    throw new Refusal(400, "INVALID_LENGTH", "Wrong length", detail);
  }
  const descriptor = openSync(filePath, "r+");
  let written = 0;
  try {
    for await (const chunk of request) {
      writeSync(descriptor, chunk as Buffer, 0, (chunk as Buffer).length, offset + written);
      written += (chunk as Buffer).length;
    }
  } finally {
    closeSync(descriptor);
  }
  if (written !== length) throw new Refusal(400, "INVALID_LENGTH", "Wrong length", "The body was cut short.");
}
