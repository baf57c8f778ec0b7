import { DOMParser, type Element } from "@xmldom/xmldom";

/** Real responses are a few kilobytes; an assertion with many groups stays far below this. */
export const maxSamlResponseBytes = 256 * 1024;
/** Real responses nest about eight elements deep. */
const maxSamlDepth = 40;

/**
 * Tags, comments, CDATA and processing instructions of an XML text, with quoted attribute values
 * skipped whole (so a `/>` or `</x>` inside a value cannot hide an element).
 */
const xmlToken =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<(\/?)[A-Za-z_][\w.:-]*(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>/g;

/**
 * Screens a posted SAMLResponse before any XML parser sees it: size, no document type (no
 * entities), bounded nesting. Returns why it is refused, or null. Linear in the size, so a
 * hostile post costs little; parsing a deeply nested one cost 180 ms.
 */
export function screenSamlResponse(base64: string): string | null {
  if (base64.length > Math.ceil((maxSamlResponseBytes * 4) / 3) + 4) return "too large";
  const xml = Buffer.from(base64, "base64").toString("utf8");
  if (xml.length > maxSamlResponseBytes) return "too large";
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return "document type";
  let depth = 0;
  for (const match of xml.matchAll(xmlToken)) {
    if (match[1] === "/") depth -= 1;
    else if (match[2] !== "/" && !match[0].startsWith("<!") && !match[0].startsWith("<?")) depth += 1;
    if (depth > maxSamlDepth) return "nested too deeply";
  }
  return null;
}

function parse(xml: string): Element | null {
  if (!xml) return null;
  return new DOMParser({ onError: () => undefined }).parseFromString(xml, "text/xml").documentElement;
}

function children(parent: Element, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).localName === localName) found.push(node as Element);
  }
  return found;
}

function descendants(parent: Element, localName: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS("*", localName));
}

function text(element: Element | undefined): string {
  return element?.textContent?.trim() ?? "";
}

export interface ExpectedAnswer {
  /** This organization's ACS: where the answer must say it is going. */
  acsUrl: string;
  /** The entity id of the organization's identity provider. */
  idpEntityId: string;
  /** The ID of the AuthnRequest this sign-in sent. */
  requestId: string;
}

/**
 * What node-saml leaves unchecked, on the answer it has verified: the Issuer (of the assertion,
 * and of the response when it names one), the response's Destination, the bearer confirmation's
 * Recipient, and that InResponseTo answers this sign-in's request rather than any request still
 * waiting. The assertion is read from the XML the signature covered. Returns what is wrong, or null.
 */
export function checkSamlAnswer(
  xml: { assertion: string; response: string },
  expected: ExpectedAnswer,
): string | null {
  const assertion = parse(xml.assertion);
  const response = parse(xml.response);
  if (!assertion || !response) return "unreadable answer";
  if (text(children(assertion, "Issuer")[0]) !== expected.idpEntityId) return "wrong assertion issuer";
  const responseIssuer = children(response, "Issuer")[0];
  if (responseIssuer && text(responseIssuer) !== expected.idpEntityId) return "wrong response issuer";
  const destination = response.getAttribute("Destination");
  if (destination && destination !== expected.acsUrl) return "wrong destination";
  if (response.getAttribute("InResponseTo") !== expected.requestId) return "answers another request";
  const confirmations = descendants(assertion, "SubjectConfirmation").filter(
    (confirmation) => confirmation.getAttribute("Method") === "urn:oasis:names:tc:SAML:2.0:cm:bearer",
  );
  if (confirmations.length === 0) return "no bearer confirmation";
  for (const confirmation of confirmations) {
    const data = children(confirmation, "SubjectConfirmationData")[0];
    if (!data || data.getAttribute("Recipient") !== expected.acsUrl) return "wrong recipient";
    const inResponseTo = data.getAttribute("InResponseTo");
    if (inResponseTo && inResponseTo !== expected.requestId) return "answers another request";
  }
  return null;
}
