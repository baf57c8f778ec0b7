import { describe, expect, it } from "vitest";
import {
  assertPublicHost,
  isPublicAddress,
  OutboundTargetError,
  publicOnlyLookup,
} from "./outbound-target.ts";

describe("outbound targets", () => {
  it("tells public addresses from loopback, private, link-local and mapped ones", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"])
      expect(isPublicAddress(address)).toBe(true);
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "not an address",
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it("judges IPv6 forms that carry an IPv4 address by that address, in any spelling", () => {
    const table: [address: string, isPublic: boolean][] = [
      // IPv4-compatible (::/96, deprecated)
      ["::127.0.0.1", false],
      ["::7f00:1", false],
      ["[::127.0.0.1]", false],
      ["0:0:0:0:0:0:127.0.0.1", false],
      ["::10.0.0.1", false],
      ["::a9fe:a9fe", false],
      ["::", false],
      ["::1", false],
      ["::0.0.0.1", false],
      ["::8.8.8.8", true],
      // IPv4-mapped (::ffff:0:0/96)
      ["::ffff:7f00:1", false],
      ["::FFFF:7F00:0001", false],
      ["0:0:0:0:0:ffff:127.0.0.1", false],
      ["0000:0000:0000:0000:0000:ffff:0a00:0001", false],
      ["::ffff:169.254.169.254", false],
      ["::ffff:8.8.8.8", true],
      ["::ffff:808:808", true],
      // NAT64
      ["64:ff9b::8.8.8.8", false],
      ["64:ff9b::808:808", false],
      ["64:ff9b:1::1", false],
      ["64:ff9b:1:ffff::1", false],
      // 6to4 carries its IPv4 address in bytes 2..5
      ["2002:7f00:1::", false],
      ["2002:a00:1::1", false],
      ["2002:c0a8:101::1", false],
      ["2002:808:808::1", true],
      // Teredo
      ["2001::1", false],
      ["2001:0:4136:e378:8000:63bf:3fff:fdd2", false],
      // zone ids and brackets
      ["fe80::1%eth0", false],
      ["[fe80::1%25eth0]", false],
      ["[2606:4700:4700::1111]", true],
      ["2001:4860:4860::8888", true],
      // not addresses
      ["::127.0.0.256", false],
      ["1::2::3", false],
      ["1:2:3:4:5:6:7:8:9", false],
      ["12345::", false],
      [":1", false],
    ];
    for (const [address, isPublic] of table) expect(isPublicAddress(address), address).toBe(isPublic);
  });

  it("refuses hosts that resolve to this machine unless private targets are allowed", async () => {
    await expect(assertPublicHost("localhost", false)).rejects.toBeInstanceOf(OutboundTargetError);
    await expect(assertPublicHost("127.0.0.1", false)).rejects.toBeInstanceOf(OutboundTargetError);
    await expect(assertPublicHost("[::1]", false)).rejects.toBeInstanceOf(OutboundTargetError);
    await expect(assertPublicHost("localhost", true)).resolves.toBeUndefined();
  });

  it("checks the address at connect time too", async () => {
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup(false)("localhost", {}, (error) => resolve(error)),
    );
    expect(refused?.code).toBe("EADDRNOTPUBLIC");
    const allowed = await new Promise<string>((resolve) =>
      publicOnlyLookup(true)("localhost", {}, (_error, address) => resolve(address as string)),
    );
    expect(["127.0.0.1", "::1"]).toContain(allowed);
  });
});
