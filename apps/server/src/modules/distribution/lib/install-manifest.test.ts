import plist from "plist";
import { describe, expect, it } from "vitest";
import { buildInstallManifest, itmsServicesLink } from "./install-manifest.ts";

const signedIpa = "https://dl.example.com/files/a.ipa?expires=1700000000&sig=ab%2Fcd&name=A%20B.ipa";

describe("buildInstallManifest", () => {
  it("builds the software package manifest and parses back", () => {
    const xml = buildInstallManifest({
      ipaUrl: signedIpa,
      bundleId: "com.example.app",
      bundleVersion: "1.2.3",
      title: "Tom & Jerry <Beta>",
    });
    expect(xml).toContain("<!DOCTYPE plist");
    expect(xml).toContain("&amp;sig=");
    expect(xml).toContain("Tom &amp; Jerry &lt;Beta&gt;");
    expect(xml).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(plist.parse(xml)).toEqual({
      items: [
        {
          assets: [{ kind: "software-package", url: signedIpa }],
          metadata: {
            "bundle-identifier": "com.example.app",
            "bundle-version": "1.2.3",
            kind: "software",
            title: "Tom & Jerry <Beta>",
          },
        },
      ],
    });
  });

  it("adds the display and full-size images when an icon is given", () => {
    const icon = "https://dl.example.com/icon.png?a=1&b=2";
    const parsed = plist.parse(
      buildInstallManifest({
        ipaUrl: signedIpa,
        bundleId: "com.example.app",
        bundleVersion: "42",
        title: "Приложение",
        iconUrl: icon,
      }),
    ) as { items: Array<{ assets: unknown[]; metadata: { title: string } }> };
    expect(parsed.items[0]?.assets).toEqual([
      { kind: "software-package", url: signedIpa },
      { kind: "display-image", url: icon },
      { kind: "full-size-image", url: icon },
    ]);
    expect(parsed.items[0]?.metadata.title).toBe("Приложение");
  });
});

describe("itmsServicesLink", () => {
  it("encodes the whole manifest URL so its own query survives", () => {
    const manifest = "https://tarmac.example.com/api/manifest/7.plist?expires=1&sig=x/y+z";
    const link = itmsServicesLink(manifest);
    expect(link).toBe(
      "itms-services://?action=download-manifest&url=https%3A%2F%2Ftarmac.example.com%2Fapi%2Fmanifest%2F7.plist%3Fexpires%3D1%26sig%3Dx%2Fy%2Bz",
    );
    expect(new URL(link).searchParams.get("url")).toBe(manifest);
  });
});
