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
