// The tag manager script is loaded only for deployments that configure a container id.
const CONTAINER_ID_PATTERN = /^GTM-[A-Z0-9]+$/;
const SCRIPT_ID = "tarmac-gtm";

export function installTagManager(containerId: string | null, doc: Document = document): boolean {
  if (!containerId || !CONTAINER_ID_PATTERN.test(containerId)) return false;
  if (doc.getElementById(SCRIPT_ID)) return true;
  window.dataLayer ??= [];
  window.dataLayer.push({ "gtm.start": Date.now(), event: "gtm.js" });
  const script = doc.createElement("script");
  script.id = SCRIPT_ID;
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(containerId)}`;
  doc.head.appendChild(script);
  return true;
}
