/**
 * Hostile SAML answers (BENCH_ONLY=sso): what one deeply nested post costs to refuse, and what
 * four clients posting them do to everyone else's requests, measured as the liveness check's
 * throughput under the attack against the same check alone in the same run. With TRUST_PROXY each
 * attacking post comes from an address of its own, so the per-address throttle never answers for
 * the screen: the figures are the screen's. The in-process lines compare screening a post with
 * parsing it, which is what each post cost before the screen existed.
 */
import http from "node:http";
import { DOMParser } from "@xmldom/xmldom";
import { screenSamlResponse } from "../src/modules/sso/saml-answer.ts";
import { signingPair, vendorMetadata } from "../test/helpers/saml-peer.ts";
import { percentile, startBenchServer } from "./bench-server.ts";

/** The shape the attack pass used: thousands of nested elements in one small post. */
export const deepAnswer = Buffer.from(
  `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">${"<a>".repeat(20_000)}${"</a>".repeat(20_000)}</samlp:Response>`,
).toString("base64");

function timeEach(runs: number, work: () => void): number[] {
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times;
}

function send(
  agent: http.Agent,
  url: URL,
  options: { method: string; headers?: Record<string, string>; body?: string },
) {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      url,
      { agent, method: options.method, headers: options.headers },
      (response) => {
        response.on("data", () => undefined);
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** `clients` loops of `next()` for `seconds`: request count and latencies. */
async function drive(clients: number, seconds: number, next: () => Promise<number>) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const status = await next();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    statuses,
  };
}

export async function runHostileSsoBench(seconds: number) {
  const parse = timeEach(20, () =>
    new DOMParser({ onError: () => undefined }).parseFromString(
      Buffer.from(deepAnswer, "base64").toString("utf8"),
      "text/xml",
    ),
  );
  const screen = timeEach(20, () => screenSamlResponse(deepAnswer));

  const bench = await startBenchServer({ TRUST_PROXY: "true" });
  try {
    const pair = signingPair();
    const boundary = "----bench-sso";
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="customsso_metadata"; filename="idp.xml"\r\nContent-Type: application/xml\r\n\r\n${vendorMetadata("custom", pair.base64).xml}\r\n`,
      `--${boundary}--\r\n`,
    ].join("");
    const saved = await fetch(`${bench.url}/api/orgs-sso-custom/${bench.organizationId}/`, {
      method: "PUT",
      headers: {
        authorization: `Token ${bench.token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    if (saved.status !== 200) throw new Error(`SAML settings: ${saved.status} ${await saved.text()}`);
    const health = new URL(`${bench.url}/api/health/`);
    const acs = new URL(`${bench.url}/api/sso/saml/${bench.organizationId}/acs/`);
    const form = new URLSearchParams({ SAMLResponse: deepAnswer, RelayState: "bench" }).toString();
    let address = 0;
    const attack = () => {
      address += 1;
      return send(attackers, acs, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-for": `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
        },
        body: form,
      });
    };
    const checkers = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const attackers = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const check = () => send(checkers, health, { method: "GET" });
    const alone = await drive(4, seconds, check);
    const [underAttack, posts] = await Promise.all([drive(4, seconds, check), drive(4, seconds, attack)]);
    checkers.destroy();
    attackers.destroy();
    return {
      parseMs: percentile(parse, 0.5),
      screenMs: percentile(screen, 0.5),
      alone,
      underAttack,
      posts,
    };
  } finally {
    await bench.stop();
  }
}
