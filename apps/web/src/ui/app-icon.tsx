import { Box } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AppType } from "../api/applications.ts";
import { NEUTRAL_TILE, PLATFORM_MONOGRAMS, PLATFORM_TILES, platformKey } from "./platform.ts";

/** Corner radius of an icon of this size: the same share of the side at every size, as launchers draw. */
export function iconRadius(size: number): number {
  return Math.round(size * 0.225);
}

/**
 * Up to two initials of a title: the first letter of its first two words ("Tarmac Demo" → "TD"),
 * or of the two parts of one camel-cased word ("WhatsApp" → "WA"); empty when it has no letter
 * or digit.
 */
export function initials(title: string): string {
  let words = title.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 1) words = (words[0] as string).split(/(?<=\p{Ll})(?=\p{Lu})/u);
  return words
    .slice(0, 2)
    .map((word) => Array.from(word)[0] ?? "")
    .join("")
    .toLocaleUpperCase();
}

/** The app's icon, or a letter tile in its platform's colour when it has none (or it fails to load). */
export function AppIcon({
  src,
  appType,
  title = "",
  size = 40,
}: {
  src: string | null;
  appType: AppType | null;
  title?: string;
  size?: number;
}) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState<string | null>(null);
  const shape = { width: size, height: size, borderRadius: iconRadius(size), flex: "none" } as const;
  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt=""
        width={size}
        height={size}
        style={{ ...shape, display: "block", objectFit: "cover" }}
        onError={() => setFailed(src)}
      />
    );
  }
  const tile = appType === null ? NEUTRAL_TILE : PLATFORM_TILES[appType];
  const letters = initials(title) || (appType === null ? "" : PLATFORM_MONOGRAMS[appType]);
  return (
    <Box
      aria-hidden="true"
      data-placeholder={appType === null ? "" : t(platformKey(appType))}
      style={{
        ...shape,
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        background: `linear-gradient(160deg, ${tile.from}, ${tile.to})`,
        boxShadow: "inset 0 0 0 1px rgba(0, 0, 0, 0.08)",
        color: tile.text,
        fontSize: Math.round(size * (letters.length > 1 ? 0.38 : 0.46)),
        fontWeight: 700,
        letterSpacing: "0.02em",
        lineHeight: 1,
        userSelect: "none",
      }}
    >
      {letters}
    </Box>
  );
}
