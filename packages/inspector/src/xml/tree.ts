import type { XmlElement } from "./parse.ts";

/** "uap:VisualElements" -> "VisualElements": manifests mix namespaces whose prefixes vary by producer. */
export function localName(name: string): string {
  const colon = name.lastIndexOf(":");
  return colon === -1 ? name : name.slice(colon + 1);
}

/** First child whose local name matches. */
export function findChild(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((child) => localName(child.name) === name);
}

/** Every child whose local name matches, in document order. */
export function findChildren(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => localName(child.name) === name);
}

/** Follows a path of local names through first matches: findPath(root, "Properties", "Logo"). */
export function findPath(element: XmlElement, ...names: string[]): XmlElement | undefined {
  let current: XmlElement | undefined = element;
  for (const name of names) {
    if (!current) return undefined;
    current = findChild(current, name);
  }
  return current;
}

/** Trimmed text of the first matching child, or null when there is no such child or it is blank. */
export function childText(element: XmlElement, name: string): string | null {
  const text = findChild(element, name)?.text.trim();
  return text ? text : null;
}

/** Attribute by local name (so "xmlns:x"-style prefixes need not be known), or null. */
export function attributeOf(element: XmlElement, name: string): string | null {
  const exact = element.attributes[name];
  if (exact !== undefined) return exact;
  for (const [key, value] of Object.entries(element.attributes)) {
    if (localName(key) === name) return value;
  }
  return null;
}
