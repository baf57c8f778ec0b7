import dgram from "node:dgram";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import dnsPacket from "dns-packet";

const nxdomain = 3;

/**
 * A DNS server on loopback (UDP) that answers TXT questions from records the test sets: the
 * resolver Tarmac asks (DNS_SERVERS) to prove an organization's domain.
 */
export class DnsPeer {
  private readonly records = new Map<string, string[]>();
  /** While set, questions go unanswered (a resolver that is down). */
  silent = false;

  private constructor(private readonly socket: dgram.Socket) {
    socket.on("message", (message, remote) => {
      if (this.silent) return;
      const query = dnsPacket.decode(message);
      const question = query.questions?.[0];
      const values = question?.type === "TXT" ? this.records.get(question.name.toLowerCase()) : undefined;
      const reply = dnsPacket.encode({
        type: "response",
        id: query.id ?? 0,
        flags: dnsPacket.AUTHORITATIVE_ANSWER | (values ? 0 : nxdomain),
        questions: query.questions ?? [],
        answers: (values ?? []).map((data) => ({
          type: "TXT" as const,
          name: question?.name ?? "",
          ttl: 60,
          data,
        })),
      });
      socket.send(reply, remote.port, remote.address);
    });
  }

  static async start(): Promise<DnsPeer> {
    const socket = dgram.createSocket("udp4");
    socket.bind(0, "127.0.0.1");
    await once(socket, "listening");
    return new DnsPeer(socket);
  }

  /** What to put in DNS_SERVERS. */
  get server(): string {
    return `127.0.0.1:${(this.socket.address() as AddressInfo).port}`;
  }

  setTxt(name: string, values: string[]): void {
    this.records.set(name.toLowerCase(), values);
  }

  removeTxt(name: string): void {
    this.records.delete(name.toLowerCase());
  }

  async close(): Promise<void> {
    this.socket.close();
    await once(this.socket, "close");
  }
}
