import { appTypeWords } from "@tarmac/contracts/application-constants";
import type { AppType } from "../api/applications.ts";

export const APP_TYPES: readonly AppType[] = [0, 1, 2, 3];

export function platformKey(type: AppType): string {
  return `platforms.${appTypeWords[type]}`;
}

export const PLATFORM_COLORS: Record<AppType, string> = {
  0: "green",
  1: "blue",
  2: "cyan",
  3: "gray",
};

/**
 * The letter tile that stands in for a missing icon: a gradient in the platform's colour (Android
 * green, iOS blue, Windows teal, macOS graphite) and a text colour that keeps WCAG AA contrast
 * (4.5:1) against both ends of it.
 */
export interface TileColors {
  from: string;
  to: string;
  text: string;
}

export const PLATFORM_TILES: Record<AppType, TileColors> = {
  0: { from: "#3DDC84", to: "#27B86B", text: "#073042" },
  1: { from: "#0F6FE0", to: "#0052B8", text: "#FFFFFF" },
  2: { from: "#007C89", to: "#005B66", text: "#FFFFFF" },
  3: { from: "#5E6670", to: "#3A4048", text: "#FFFFFF" },
};

/** The tile of a page that does not know the platform (a locked install link). */
export const NEUTRAL_TILE: TileColors = { from: "#5E6670", to: "#3A4048", text: "#FFFFFF" };

/** Two letters standing in for a missing icon and title, one pair per platform. */
export const PLATFORM_MONOGRAMS: Record<AppType, string> = {
  0: "An",
  1: "iO",
  2: "Wi",
  3: "Ma",
};
