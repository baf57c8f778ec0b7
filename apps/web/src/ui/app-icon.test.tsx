import { MantineProvider } from "@mantine/core";
import { fireEvent, render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AppType } from "../api/applications.ts";
import { AppIcon, iconRadius, initials } from "./app-icon.tsx";
import { NEUTRAL_TILE, PLATFORM_TILES } from "./platform.ts";
import { theme } from "./theme.ts";

function show(props: Parameters<typeof AppIcon>[0]) {
  return render(
    <MantineProvider theme={theme}>
      <AppIcon {...props} />
    </MantineProvider>,
  );
}

/** WCAG 2 relative luminance and contrast ratio of two "#rrggbb" colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe("initials", () => {
  it("takes the first letters of the first two words, upper-cased", () => {
    expect(initials("Tarmac Demo")).toBe("TD");
    expect(initials("maps for kids")).toBe("MF");
    expect(initials("  démo — élan ")).toBe("DÉ");
    expect(initials("Weather")).toBe("W");
    expect(initials("WhatsApp")).toBe("WA");
    expect(initials("2048 Game")).toBe("2G");
    expect(initials("ツール アプリ")).toBe("ツア");
    expect(initials("🚀 ***")).toBe("");
  });
});

describe("AppIcon", () => {
  it("keeps AA contrast between the letters and both ends of every platform's tile", () => {
    for (const tile of [...Object.values(PLATFORM_TILES), NEUTRAL_TILE]) {
      expect(contrast(tile.text, tile.from)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(tile.text, tile.to)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("draws a tile in the platform's colour with the title's initials", () => {
    const view = show({ src: null, appType: 0, title: "Tarmac Demo", size: 64 });
    const tile = view.container.querySelector<HTMLElement>("[data-placeholder]");
    expect(tile?.textContent).toBe("TD");
    expect(tile?.getAttribute("data-placeholder")).toBe("Android");
    expect(tile?.getAttribute("aria-hidden")).toBe("true");
    expect(tile?.style.background).toContain("linear-gradient");
    expect(tile?.style.width).toBe("64px");
    expect(tile?.style.borderRadius).toBe(`${iconRadius(64)}px`);
  });

  it("colours each platform differently and falls back to its monogram without a usable title", () => {
    const backgrounds = new Set<string>();
    for (const appType of [0, 1, 2, 3] as AppType[]) {
      const view = show({ src: null, appType, title: "🚀" });
      const tile = view.container.querySelector<HTMLElement>("[data-placeholder]");
      expect(tile?.textContent).toBe(["An", "iO", "Wi", "Ma"][appType]);
      backgrounds.add(tile?.style.background ?? "");
      view.unmount();
    }
    expect(backgrounds.size).toBe(4);
  });

  it("shows the icon with the tile's corners, and the tile once the image fails to load", () => {
    const view = show({ src: "https://tarmac.test/icon.png", appType: 1, title: "Maps", size: 40 });
    const image = view.container.querySelector("img");
    expect(image?.getAttribute("src")).toBe("https://tarmac.test/icon.png");
    expect(image?.style.borderRadius).toBe(`${iconRadius(40)}px`);
    fireEvent.error(image as HTMLImageElement);
    expect(view.container.querySelector("img")).toBeNull();
    expect(view.container.querySelector("[data-placeholder]")?.textContent).toBe("M");
  });

  it("rounds the same share of the side at every size it is shown", () => {
    for (const size of [40, 52, 64]) expect(iconRadius(size) / size).toBeCloseTo(0.225, 1);
  });
});
