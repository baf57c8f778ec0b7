// Where to go after signing in: the page that sent the person to sign in, passed as ?next=.
// Only a path on this site is followed; anything else (another host, a scheme, "//evil") is
// ignored, so a link cannot use the sign-in page to send people elsewhere.

export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw?.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return null;
  try {
    const url = new URL(raw, "https://tarmac.invalid");
    if (url.origin !== "https://tarmac.invalid") return null;
    // The sign-in pages themselves are no place to come back to.
    if (/^\/(login|signup)(\/|$)/.test(url.pathname)) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** The sign-in page, asked to return to `path` (the current page) afterwards. */
export function loginPathFor(path: string): string {
  const next = safeNextPath(path);
  return next && next !== "/" ? `/login?next=${encodeURIComponent(next)}` : "/login";
}
