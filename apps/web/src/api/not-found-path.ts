/** /not-found remembering where the visitor wanted to go, so it can look for a redirect. */
export function notFoundPathFor(path: string): string {
  return path && path !== "/not-found" ? `/not-found?from=${encodeURIComponent(path)}` : "/not-found";
}

/** The address a /not-found URL remembers, when it is a path on this site. */
export function missingPathOf(search: string): string | null {
  const from = new URLSearchParams(search).get("from");
  return from?.startsWith("/") && !from.startsWith("//") ? from : null;
}
