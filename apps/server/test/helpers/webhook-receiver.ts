import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request: a status (and body), a redirect, or no answer at all. */
export type Answer = { status: number; body?: string; location?: string } | "hang";

/**
 * An HTTP endpoint on loopback that keeps what it receives, per path, and answers as each
 * path's script says (the last answer repeats), so a test can fail deliveries on purpose.
 */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  url = "";

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const path = request.url ?? "/";
        receiver.received.push({
          path,
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        const script = receiver.scripts.get(path) ?? [];
        const answer: Answer = (script.length > 1 ? script.shift() : script[0]) ?? {
          status: 200,
          body: "ok",
        };
        if (answer === "hang") {
          receiver.hanging.add(response);
          return;
        }
        response.writeHead(answer.status, answer.location ? { location: answer.location } : {});
        response.end(answer.body ?? "");
      });
    });
    receiver.server.listen(0, "127.0.0.1");
    await once(receiver.server, "listening");
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** Answers for requests to `path`, in order; the last one repeats. */
  script(path: string, answers: Answer[]): string {
    this.scripts.set(path, [...answers]);
    return `${this.url}${path}`;
  }

  at(path: string): ReceivedRequest[] {
    return this.received.filter((request) => request.path === path);
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
