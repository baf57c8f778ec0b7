import { describe, expect, it } from "vitest";
import type { GetappBuild } from "../api/distribution.ts";
import {
  buildPlatformFor,
  installLabelKey,
  isHandheld,
  orderBuilds,
  readVisitorDevice,
} from "./install-platform.ts";

const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const IPADOS_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15";
const INSTAGRAM_ANDROID_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0 Mobile Safari/537.36 Instagram 321.0.0";

function build(platform: GetappBuild["platform"], id: number): GetappBuild {
  const appType = { android: 0, ios: 1, windows: 2, macos: 3 } as const;
  return {
    id,
    platform,
    app_type: appType[platform],
    version: "1.0",
    build_version_number: "1",
    whats_new: "",
    size: 1,
    min_os_version: null,
    date: "2026-01-01T00:00:00Z",
    install: { kind: platform === "ios" ? "itms" : "download", url: `/x/${id}` },
  };
}

const ALL = [build("macos", 4), build("android", 1), build("windows", 3), build("ios", 2)];

describe("install platform logic", () => {
  it("maps each device to the build it installs", () => {
    expect(buildPlatformFor("iphone")).toBe("ios");
    expect(buildPlatformFor("ipad")).toBe("ios");
    expect(buildPlatformFor("android")).toBe("android");
    expect(buildPlatformFor("windows")).toBe("windows");
    expect(buildPlatformFor("macos")).toBe("macos");
    expect(buildPlatformFor("other")).toBeNull();
    expect(isHandheld("ipad")).toBe(true);
    expect(isHandheld("macos")).toBe(false);
  });

  it("puts the device's build first and the rest in a fixed order", () => {
    const android = orderBuilds(ALL, "android");
    expect(android.primary?.id).toBe(1);
    expect(android.others.map((b) => b.platform)).toEqual(["ios", "windows", "macos"]);
    const iphone = orderBuilds(ALL, "iphone");
    expect(iphone.primary?.platform).toBe("ios");
    expect(iphone.others.map((b) => b.platform)).toEqual(["android", "windows", "macos"]);
  });

  it("has no primary build when the device's platform is missing or unknown", () => {
    expect(orderBuilds([build("android", 1)], "iphone")).toEqual({
      primary: null,
      others: [build("android", 1)],
    });
    expect(orderBuilds(ALL, "other").primary).toBeNull();
  });

  it("names the buttons per platform", () => {
    expect(installLabelKey(build("ios", 2), "iphone")).toBe("install.install_iphone");
    expect(installLabelKey(build("ios", 2), "ipad")).toBe("install.install_ipad");
    expect(installLabelKey(build("ios", 2), "windows")).toBe("install.install_iphone");
    expect(installLabelKey(build("android", 1), "android")).toBe("install.download_apk");
    expect(installLabelKey(build("windows", 3), "windows")).toBe("install.download_windows");
    expect(installLabelKey(build("macos", 4), "macos")).toBe("install.download_macos");
  });

  it("reads the device and embedded browsers from the navigator", () => {
    expect(readVisitorDevice({ userAgent: IPHONE_UA, maxTouchPoints: 5 })).toEqual({
      device: "iphone",
      inAppBrowser: null,
    });
    // iPadOS Safari sends a Mac user agent; touch support gives it away.
    expect(readVisitorDevice({ userAgent: IPADOS_UA, maxTouchPoints: 5 }).device).toBe("ipad");
    expect(readVisitorDevice({ userAgent: IPADOS_UA, maxTouchPoints: 0 }).device).toBe("macos");
    expect(readVisitorDevice({ userAgent: INSTAGRAM_ANDROID_UA, maxTouchPoints: 5 })).toEqual({
      device: "android",
      inAppBrowser: "instagram",
    });
  });
});
