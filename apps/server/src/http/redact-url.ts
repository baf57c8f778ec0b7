/** Path segments that are secrets: the API key of a CI upload URL, e-mailed activation codes. */
const secretPathSegments = [/^(\/api\/app_upload\/[^/]+\/)[^/?]+/, /^(\/api\/user\/activate\/)[^/?]+/];
/** Query values that grant access on their own: signed links, access tokens, codes. */
const secretQueryKeys = /([?&](?:signature|access_token|token|code|password)=)[^&#]*/gi;

/**
 * A URL as it may be written to a log or a trace. Imports nothing, so the entry point can hand it
 * to tracing before anything else is loaded.
 */
export function redactUrl(url: string): string {
  let redacted = url;
  for (const pattern of secretPathSegments) redacted = redacted.replace(pattern, "$1[redacted]");
  return redacted.replace(secretQueryKeys, "$1[redacted]");
}
