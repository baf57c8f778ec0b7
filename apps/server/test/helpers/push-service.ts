/// <reference path="./http-ece.d.ts" />
// A push service on loopback HTTPS, as browsers' vendors run them (RFC 8030): it takes the
// encrypted pushes the server sends, checks their VAPID signature (RFC 8292), and decrypts
// them with the keys of the subscription it made, as the browser would (RFC 8291 via http_ece).
import { createECDH, createPublicKey, generateKeyPairSync, randomBytes, verify } from "node:crypto";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { decrypt } from "http_ece";
import forge from "node-forge";
import { tempDir } from "./temp-dirs.ts";

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The decrypted payload (the server's JSON message). */
  text: string;
  /** The VAPID JWT's claims, after its signature was checked against the key it names. */
  claims: { aud: string; exp: number; sub: string };
  /** The `k` parameter of the Authorization header: the server's public key. */
  serverKey: string;
}

interface Subscriber {
  ecdh: ReturnType<typeof createECDH>;
  auth: string;
  /** Statuses to answer, one per push; 201 once they run out. */
  answers: number[];
}

/** A certificate for 127.0.0.1 and localhost, self-signed, written to a PEM file for the server to trust. */
function loopbackCertificate() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(
    publicKey.export({ type: "spki", format: "pem" }).toString(),
  );
  certificate.serialNumber = "01";
  certificate.validity.notBefore = new Date(Date.now() - 86_400_000);
  certificate.validity.notAfter = new Date(Date.now() + 86_400_000);
  const subject = [{ name: "commonName", value: "push.test" }];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([
    {
      name: "subjectAltName",
      altNames: [
        { type: 7, ip: "127.0.0.1" },
        { type: 2, value: "localhost" },
      ],
    },
  ]);
  certificate.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(certificate);
  const caFile = path.join(tempDir("push-ca"), "push-service.pem");
  writeFileSync(caFile, certPem);
  return { keyPem, certPem, caFile };
}

function verifiedClaims(authorization: string | undefined) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [header, payload, signature] = jwt.split(".") as [string, string, string];
  const point = Buffer.from(k, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!signed) throw new Error("the VAPID signature does not verify");
  return { claims: JSON.parse(Buffer.from(payload, "base64url").toString()), serverKey: k };
}

export class LoopbackPushService {
  readonly received: ReceivedPush[] = [];
  readonly failures: string[] = [];
  private readonly subscribers = new Map<string, Subscriber>();
  private sequence = 0;

  private constructor(
    private readonly server: Server,
    readonly caFile: string,
  ) {}

  static async start(): Promise<LoopbackPushService> {
    const { keyPem, certPem, caFile } = loopbackCertificate();
    let service: LoopbackPushService | null = null;
    const server = createServer({ key: keyPem, cert: certPem }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const status = service?.take(request.url ?? "", request.headers, Buffer.concat(chunks)) ?? 500;
        response.writeHead(status).end();
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    service = new LoopbackPushService(server, caFile);
    return service;
  }

  get origin(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A new subscription, as PushManager.subscribe() would make: the JSON the browser posts to the server. */
  subscribe(answers: number[] = []) {
    this.sequence += 1;
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16).toString("base64url");
    const pushPath = `/push/${this.sequence}-${randomBytes(6).toString("hex")}`;
    this.subscribers.set(pushPath, { ecdh, auth, answers: [...answers] });
    return {
      path: pushPath,
      json: {
        endpoint: `${this.origin}${pushPath}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth },
      },
    };
  }

  /** The pushes that reached a subscription, decrypted. */
  at(pushPath: string): ReceivedPush[] {
    return this.received.filter((push) => push.path === pushPath);
  }

  private take(url: string, headers: ReceivedPush["headers"], body: Buffer): number {
    const subscriber = this.subscribers.get(url);
    if (!subscriber) return 404;
    const answer = subscriber.answers.shift() ?? 201;
    if (answer !== 201) return answer;
    try {
      const { claims, serverKey } = verifiedClaims(headers.authorization as string | undefined);
      if (headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
      const text = decrypt(body, {
        version: "aes128gcm",
        privateKey: subscriber.ecdh,
        authSecret: subscriber.auth,
      }).toString("utf8");
      this.received.push({ path: url, headers, text, claims, serverKey });
      return 201;
    } catch (error) {
      this.failures.push(String(error));
      return 400;
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
