import { useEffect, useState } from "react";
import { type Breakpoint, getBreakpoint, isFourK, RESIZE_DEBOUNCE_MS } from "./breakpoints.ts";

export interface ViewportSize {
  width: number;
  breakpoint: Breakpoint;
  is4k: boolean;
}

function measureViewport(): ViewportSize {
  const width = window.innerWidth;
  return { width, breakpoint: getBreakpoint(width), is4k: isFourK(width) };
}

/** The current breakpoint; resizes settle for 100 ms before the value changes. */
export function useBreakpoint(): ViewportSize {
  const [size, setSize] = useState(measureViewport);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const handleResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setSize(measureViewport()), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener("resize", handleResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("resize", handleResize);
    };
  }, []);

  return size;
}
