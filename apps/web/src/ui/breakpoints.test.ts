import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getBreakpoint, isFourK } from "./breakpoints.ts";
import { useBreakpoint } from "./use-breakpoint.ts";

function resizeWindowTo(width: number): void {
  Object.defineProperty(window, "innerWidth", { configurable: true, value: width });
  window.dispatchEvent(new Event("resize"));
}

describe("breakpoints", () => {
  it("places the edges of spec §9 in the right ranges", () => {
    const widths = [0, 767, 768, 991, 992, 1199, 1200, 1599, 1600, 3839];
    expect(widths.map(getBreakpoint)).toEqual(["xs", "xs", "sm", "sm", "md", "md", "lg", "lg", "xl", "xl"]);
  });

  it("counts 3840 pixels and more as 4k", () => {
    expect([3839, 3840, 5120].map(isFourK)).toEqual([false, true, true]);
  });
});

describe("useBreakpoint", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("changes only after resizing has settled for 100 ms", () => {
    vi.useFakeTimers();
    Object.defineProperty(window, "innerWidth", { configurable: true, value: 1280 });
    const { result } = renderHook(() => useBreakpoint());
    expect(result.current).toEqual({ width: 1280, breakpoint: "lg", is4k: false });

    act(() => {
      resizeWindowTo(800);
      vi.advanceTimersByTime(60);
      resizeWindowTo(390);
      vi.advanceTimersByTime(99);
    });
    expect(result.current.breakpoint).toBe("lg");

    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current).toEqual({ width: 390, breakpoint: "xs", is4k: false });

    act(() => {
      resizeWindowTo(3840);
      vi.advanceTimersByTime(100);
    });
    expect(result.current).toEqual({ width: 3840, breakpoint: "xl", is4k: true });
  });
});
