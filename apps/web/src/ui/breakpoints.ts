// Layout breakpoints of spec §9; widths are CSS pixels of the viewport.
export type Breakpoint = "xs" | "sm" | "md" | "lg" | "xl";

export const BREAKPOINT_MIN_WIDTHS: Record<Breakpoint, number> = {
  xs: 0,
  sm: 768,
  md: 992,
  lg: 1200,
  xl: 1600,
};

export const FOUR_K_MIN_WIDTH = 3840;
export const RESIZE_DEBOUNCE_MS = 100;

export function getBreakpoint(width: number): Breakpoint {
  if (width >= BREAKPOINT_MIN_WIDTHS.xl) return "xl";
  if (width >= BREAKPOINT_MIN_WIDTHS.lg) return "lg";
  if (width >= BREAKPOINT_MIN_WIDTHS.md) return "md";
  if (width >= BREAKPOINT_MIN_WIDTHS.sm) return "sm";
  return "xs";
}

export function isFourK(width: number): boolean {
  return width >= FOUR_K_MIN_WIDTH;
}
