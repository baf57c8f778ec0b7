// Every navigation is reported to the tag manager's data layer (spec §2).
import { useEffect } from "react";
import { useLocation } from "react-router";

export interface PageViewEvent {
  event: "page_view";
  page_path: string;
  page_title: string;
}

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export function pushPageView(pagePath: string, pageTitle: string): void {
  window.dataLayer ??= [];
  const event: PageViewEvent = { event: "page_view", page_path: pagePath, page_title: pageTitle };
  window.dataLayer.push(event);
}

/**
 * Rendered after the route outlet so that the page's own effects (which set document.title)
 * have run when the event is pushed.
 */
export function PageViewTracker() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    pushPageView(`${pathname}${search}`, document.title);
  }, [pathname, search]);
  return null;
}
