// Runtime settings the server injects into index.html in place of <!--tarmac-config-->,
// so one build serves every deployment.

export interface TarmacConfig {
  gtm_container_id: string | null;
  cookie_domain: string;
  public_url: string;
}

const CONFIG_ELEMENT_ID = "tarmac-config";

function readDefaultPublicUrl(): string {
  return typeof window === "undefined" ? "" : window.location.origin;
}

export function readConfig(doc: Document): TarmacConfig {
  const defaults: TarmacConfig = {
    gtm_container_id: null,
    cookie_domain: "",
    public_url: readDefaultPublicUrl(),
  };
  const element = doc.getElementById(CONFIG_ELEMENT_ID);
  if (!element?.textContent) return defaults;
  let raw: unknown;
  try {
    raw = JSON.parse(element.textContent);
  } catch {
    return defaults;
  }
  if (typeof raw !== "object" || raw === null) return defaults;
  const record = raw as Record<string, unknown>;
  return {
    gtm_container_id:
      typeof record.gtm_container_id === "string" && record.gtm_container_id !== ""
        ? record.gtm_container_id
        : null,
    cookie_domain: typeof record.cookie_domain === "string" ? record.cookie_domain : "",
    public_url:
      typeof record.public_url === "string" && record.public_url !== ""
        ? record.public_url
        : defaults.public_url,
  };
}

let cached: TarmacConfig | null = null;

export function getConfig(): TarmacConfig {
  cached ??= readConfig(document);
  return cached;
}

/** Lets tests start from a different injected configuration. */
export function resetConfigCache(): void {
  cached = null;
}
