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

/** Two letters standing in for a missing icon, one pair per platform. */
export const PLATFORM_MONOGRAMS: Record<AppType, string> = {
  0: "An",
  1: "iO",
  2: "Wi",
  3: "Ma",
};
