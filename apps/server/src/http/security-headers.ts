/**
 * The CSP for the web app. Mantine writes inline styles, so style-src allows them; scripts come
 * only from the app itself and, when configured, the tag manager.
 */
export function contentSecurityPolicy(tagManager: boolean, https: boolean): Record<string, string[] | null> {
  const tagManagerHosts = tagManager
    ? ["https://www.googletagmanager.com", "https://www.google-analytics.com"]
    : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...tagManagerHosts],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:", ...tagManagerHosts],
    connectSrc: ["'self'", ...tagManagerHosts],
    fontSrc: ["'self'", "data:"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    // On plain HTTP (a LAN install) upgrading subresources to HTTPS would break every asset.
    upgradeInsecureRequests: https ? [] : null,
  };
}
