import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Addresses a user-given host must not reach: this machine, private networks, link-local (cloud
 * metadata services live at 169.254.169.254), shared and reserved ranges. Otherwise a URL typed
 * into a settings form could read the instance's own network (server-side request forgery).
 */
const privateIpv4 = new BlockList();
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
  privateIpv4.addSubnet(network, prefix, "ipv4");
}

/**
 * IPv6 ranges that are not public. NAT64 prefixes translate to any IPv4 address the gateway
 * chooses (its own network too), and Teredo tunnels to one, so neither is judged as public.
 */
const privateIpv6: [prefix: number[], bits: number][] = [
  [[0x00, 0x64, 0xff, 0x9b], 96],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48],
  [[0x01, 0x00], 64],
  [[0x20, 0x01, 0x00, 0x00], 32],
  [[0x20, 0x01, 0x0d, 0xb8], 32],
  [[0xfc], 7],
  [[0xfe, 0x80], 10],
  [[0xff], 8],
];

export class OutboundTargetError extends Error {
  override readonly name = "OutboundTargetError";
}

/** A literal address (brackets and an IPv6 zone id allowed) that is none of the private ranges. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  if (!bare.includes(":")) return isIP(bare) === 4 && !privateIpv4.check(bare, "ipv4");
  const bytes = ipv6Bytes(bare);
  if (!bytes) return false;
  // Forms that carry an IPv4 address are judged by it, since that is where they lead: mapped
  // (::ffff:0:0/96), IPv4-compatible (::/96; :: and ::1 fall in 0.0.0.0/8) and 6to4 (2002::/16).
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return isPublicIpv4(bytes, 12);
  if (zeros(0, 12)) return isPublicIpv4(bytes, 12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return isPublicIpv4(bytes, 2);
  return !privateIpv6.some(([prefix, bits]) => startsWith(bytes, prefix, bits));
}

function isPublicIpv4(bytes: Uint8Array, offset: number): boolean {
  return !privateIpv4.check(bytes.subarray(offset, offset + 4).join("."), "ipv4");
}

function startsWith(bytes: Uint8Array, prefix: number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const mask = (0xff << Math.max(0, 8 - (bits - bit))) & 0xff;
    if (((bytes[bit / 8] as number) & mask) !== ((prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

const ipv4Part = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * The 16 bytes of an IPv6 address in any spelling: `::` compression, a trailing dotted quad, a
 * zone id (`%eth0`, ignored). Parsed here rather than trusted to string patterns, which miss
 * spellings such as ::7f00:1.
 */
function ipv6Bytes(text: string): Uint8Array | null {
  let rest = text.split("%")[0] as string;
  const lastColon = rest.lastIndexOf(":");
  if (rest.includes(".", lastColon)) {
    const quad = rest.slice(lastColon + 1).split(".");
    if (quad.length !== 4 || !quad.every((part) => ipv4Part.test(part))) return null;
    const [a, b, c, d] = quad.map(Number) as [number, number, number, number];
    rest = `${rest.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = rest.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groupsOf(halves[0] as string);
  const tail = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...new Array<string>(missing).fill("0"), ...tail];
  const bytes = new Uint8Array(16);
  for (const [index, group] of groups.entries()) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    const value = Number.parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  }
  return bytes;
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
