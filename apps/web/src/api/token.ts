// The auth token lives in a cookie so that it survives reloads for 14 days (spec §9) and can be
// shared across sub-domains when the deployment sets a cookie domain.
import { getConfig } from "../config.ts";

const TOKEN_COOKIE_PREFIX = "tarmac_token";
const TOKEN_LIFETIME_SECONDS = 14 * 24 * 60 * 60;
export const CURRENT_APP_ID_KEY = "current_app_id";
export const CURRENT_ORG_ID_KEY = "current_org_id";

export function buildTokenCookieName(cookieDomain: string): string {
  return cookieDomain
    ? `${TOKEN_COOKIE_PREFIX}_${cookieDomain.replace(/[^a-zA-Z0-9]/g, "_")}`
    : TOKEN_COOKIE_PREFIX;
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) {
      return decodeURIComponent(part.slice(separator + 1).trim());
    }
  }
  return null;
}

function writeTokenCookie(value: string, maxAgeSeconds: number): void {
  const { cookie_domain: domain } = getConfig();
  const attributes = [`Max-Age=${maxAgeSeconds}`, "Path=/", "SameSite=Lax"];
  if (domain) attributes.push(`Domain=${domain}`);
  if (window.location.protocol === "https:") attributes.push("Secure");
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not available in every supported browser
  document.cookie = `${buildTokenCookieName(domain)}=${encodeURIComponent(value)}; ${attributes.join("; ")}`;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let loggedIn: boolean | null = null;

function notifyListeners(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  const token = readCookie(buildTokenCookieName(getConfig().cookie_domain));
  return token ? token : null;
}

export function setToken(token: string): void {
  writeTokenCookie(token, TOKEN_LIFETIME_SECONDS);
  loggedIn = true;
  notifyListeners();
}

export function clearToken(): void {
  writeTokenCookie("", 0);
  loggedIn = false;
  notifyListeners();
}

/** Forgets the token and the remembered app and organization (spec §4, logout). */
export function clearSession(): void {
  clearToken();
  localStorage.removeItem(CURRENT_APP_ID_KEY);
  localStorage.removeItem(CURRENT_ORG_ID_KEY);
}

export function isLoggedIn(): boolean {
  loggedIn ??= getToken() !== null;
  return loggedIn;
}

export function subscribeToSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
