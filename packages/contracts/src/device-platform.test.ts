import { describe, expect, it } from "vitest";
import { detectDevicePlatform, detectInAppBrowser } from "./device-platform.ts";

const ua = {
  iphoneSafari:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  iphoneChrome:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1",
  ipod: "Mozilla/5.0 (iPod touch; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1",
  ipadLegacy:
    "Mozilla/5.0 (iPad; CPU OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1",
  macSafari:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  macChrome:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36",
  androidChrome:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.6312.99 Mobile Safari/537.36",
  androidSamsung:
    "Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
  androidTablet:
    "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36",
  windowsEdge:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36 Edg/123.0.2420.65",
  windowsFirefox: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:124.0) Gecko/20100101 Firefox/124.0",
  windowsPhone:
    "Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.15063",
  linuxFirefox: "Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0",
  chromeOs:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36",
  facebookIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/452.0.0.38.109;FBBV/567232497;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.3.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/569012066]",
  facebookAndroid:
    "Mozilla/5.0 (Linux; Android 13; SM-G991B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/455.0.0.44.88;]",
  instagramIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 323.0.3.23.54 (iPhone15,3; iOS 17_4; en_US; en; scale=3.00; 1290x2796; 577210397)",
  instagramAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/AP1A.240305.019; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 Instagram 322.0.0.35.95 Android (34/14; 420dpi; 1080x2400; Google/google; Pixel 7; panther; panther; en_US; 577210397)",
  line: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.3.0",
  twitter:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.34",
  twitterAndroid:
    "Mozilla/5.0 (Linux; Android 12; SM-A525F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/121.0.6167.178 Mobile Safari/537.36 TwitterAndroid",
  linkedin:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.1960",
  telegram:
    "Mozilla/5.0 (Linux; Android 13; M2101K6G Build/TKQ1.221013.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.105 Mobile Safari/537.36 Telegram-Android/10.9.1 (Xiaomi M2101K6G; Android 13; SDK 33; AVERAGE)",
  wechat:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN",
  gsa: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/307.0.615520713 Mobile/15E148 Safari/604.1",
  androidWebView:
    "Mozilla/5.0 (Linux; Android 14; Pixel 6 Build/AP1A.240305.019; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36",
};

describe("detectDevicePlatform", () => {
  it.each([
    [ua.iphoneSafari, 5, "iphone"],
    [ua.iphoneChrome, 5, "iphone"],
    [ua.ipod, 5, "iphone"],
    [ua.facebookIos, 5, "iphone"],
    [ua.ipadLegacy, 5, "ipad"],
    // iPadOS 13+ Safari sends the desktop Mac UA; touch points tell it apart from a Mac.
    [ua.macSafari, 5, "ipad"],
    [ua.macSafari, 0, "macos"],
    [ua.macSafari, 1, "macos"],
    [ua.macChrome, undefined, "macos"],
    [ua.androidChrome, 5, "android"],
    [ua.androidSamsung, 5, "android"],
    [ua.androidTablet, 10, "android"],
    [ua.facebookAndroid, 5, "android"],
    [ua.windowsEdge, 0, "windows"],
    [ua.windowsFirefox, 10, "windows"],
    [ua.windowsPhone, 5, "other"],
    [ua.linuxFirefox, 0, "other"],
    [ua.chromeOs, 0, "other"],
    ["", 0, "other"],
  ] as const)("%s (%s touch points) -> %s", (userAgent, touch, expected) => {
    expect(detectDevicePlatform(userAgent, touch)).toBe(expected);
  });

  it("treats a missing user agent as other", () => {
    expect(detectDevicePlatform(undefined)).toBe("other");
    expect(detectDevicePlatform(null, 5)).toBe("other");
  });
});

describe("detectInAppBrowser", () => {
  it.each([
    [ua.facebookIos, "facebook"],
    [ua.facebookAndroid, "facebook"],
    [ua.instagramIos, "instagram"],
    [ua.instagramAndroid, "instagram"],
    [ua.line, "line"],
    [ua.twitter, "twitter"],
    [ua.twitterAndroid, "twitter"],
    [ua.linkedin, "linkedin"],
    [ua.telegram, "telegram"],
    [ua.wechat, "wechat"],
    [ua.gsa, "google"],
    [ua.androidWebView, "android-webview"],
    [ua.iphoneSafari, null],
    [ua.iphoneChrome, null],
    [ua.macSafari, null],
    [ua.androidChrome, null],
    [ua.androidSamsung, null],
    [ua.windowsEdge, null],
    ["", null],
  ] as const)("%s -> %s", (userAgent, expected) => {
    expect(detectInAppBrowser(userAgent)).toBe(expected);
  });
});
