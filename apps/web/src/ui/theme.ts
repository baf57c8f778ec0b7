import {
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
  type VariantColorsResolver,
} from "@mantine/core";

/**
 * Light badges, buttons and alerts write their text in the colour's shade 6 on its palest tint,
 * about 3:1; shade 9 darkened by 30% reaches WCAG AA's 4.5:1 for every palette colour.
 */
const readableLightVariant: VariantColorsResolver = (input) => {
  const resolved = defaultVariantColorsResolver(input);
  if (input.variant !== "light") return resolved;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return resolved;
  // Shade 9 alone is not enough for the light palettes (green, cyan, yellow): darken it further.
  return { ...resolved, color: `color-mix(in srgb, var(--mantine-color-${parsed.color}-9), black 30%)` };
};

export const theme = createTheme({
  primaryColor: "blue",
  // Shade 8 in light mode: white text on it reaches 4.6:1 (WCAG AA); shade 6 is only 3.55:1.
  primaryShade: { light: 8, dark: 8 },
  variantColorResolver: readableLightVariant,
  defaultRadius: "md",
  focusRing: "auto",
  fontFamily:
    "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  headings: { fontWeight: "700" },
});
