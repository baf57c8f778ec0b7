import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Addresses a user-given host must not reach: this machine, private networks, link-local (cloud
 * metadata services live at 169.254.169.254), shared and reserved ranges. Otherwise a URL typed
 * into a settings form could read the instance's own network (server-side request forgery).
 */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv6");
}

export class OutboundTargetError extends Error {
  override readonly name = "OutboundTargetError";
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1] as string);
    return !privateRanges.check(address, "ipv6");
  }
  return !privateRanges.check(address, "ipv4");
}

/**
 * The address to connect to for a user-given host: its first address, refused when any of its
 * addresses is not public (unless the instance allows private targets). Connecting to the
 * address checked, rather than the name, leaves no room for a second, different DNS answer.
 */
export async function resolvePublicAddress(host: string, allowPrivate: boolean): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIP(bare)) {
    if (!allowPrivate && !isPublicAddress(bare))
      throw new OutboundTargetError(`${host} is not a public address`);
    return bare;
  }
  const found = await lookup(bare, { all: true });
  if (found.length === 0) throw new OutboundTargetError(`${host} does not resolve`);
  if (!allowPrivate && !found.every((entry) => isPublicAddress(entry.address))) {
    throw new OutboundTargetError(`${host} is not a public address`);
  }
  return (found[0] as { address: string }).address;
}

/** Refuses a host that is, or resolves to, a non-public address (unless the instance allows them). */
export async function assertPublicHost(host: string, allowPrivate: boolean): Promise<void> {
  if (!allowPrivate) await resolvePublicAddress(host, false);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s) agents that checks the address actually connected to, so a name that
 * resolves to a public address when the settings are saved and to a private one later (DNS
 * rebinding) is still refused.
 */
export function publicOnlyLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, []);
      const list = found as LookupAddress[];
      if (!allowPrivate && !list.every((entry) => isPublicAddress(entry.address))) {
        const refused = new OutboundTargetError(
          `${hostname} is not a public address`,
        ) as NodeJS.ErrnoException;
        refused.code = "EADDRNOTPUBLIC";
        return callback(refused, []);
      }
      if (options.all) return callback(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
