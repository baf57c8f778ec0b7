import { InspectError } from "../errors.ts";
import {
  attributeOf,
  childText,
  findChild,
  findChildren,
  localName,
  parseXml,
  type XmlElement,
} from "../xml/index.ts";

/** The installer's own description of a product archive (Distribution) and of each component (PackageInfo). */

export interface DistributionInfo {
  title: string | null;
  productId: string | null;
  productVersion: string | null;
  minOsVersion: string | null;
  pkgRefs: { identifier: string; version: string | null }[];
}

export interface PackageInfo {
  identifier: string;
  version: string | null;
  install_location: string | null;
}

function findDescendant(element: XmlElement, name: string): XmlElement | undefined {
  const stack = [...element.children];
  while (stack.length > 0) {
    const current = stack.shift() as XmlElement;
    if (localName(current.name) === name) return current;
    stack.push(...current.children);
  }
  return undefined;
}

export function readDistribution(xml: Buffer): DistributionInfo {
  const root = parseXml(xml);
  if (localName(root.name) !== "installer-gui-script" && localName(root.name) !== "installer-script") {
    throw new InspectError("corrupt", `Distribution root is <${root.name.slice(0, 40)}>`);
  }
  const product = findChild(root, "product");
  // pkg-ref appears once with a version and again inside choices; merge them by id.
  const refs = new Map<string, string | null>();
  for (const ref of findChildren(root, "pkg-ref")) {
    const id = attributeOf(ref, "id");
    if (!id) continue;
    const version = attributeOf(ref, "version");
    if (!refs.has(id) || (version && !refs.get(id))) refs.set(id, version);
  }
  const osVersion = findDescendant(root, "allowed-os-versions");
  const minimum = osVersion ? findChild(osVersion, "os-version") : undefined;
  return {
    title: childText(root, "title"),
    productId: product ? attributeOf(product, "id") : null,
    productVersion: product ? attributeOf(product, "version") : null,
    minOsVersion: minimum ? attributeOf(minimum, "min") : null,
    pkgRefs: [...refs].map(([identifier, version]) => ({ identifier, version })),
  };
}

export function readPackageInfo(xml: Buffer): PackageInfo {
  const root = parseXml(xml);
  const identifier = localName(root.name) === "pkg-info" ? attributeOf(root, "identifier") : null;
  if (!identifier) throw new InspectError("corrupt", "PackageInfo without an identifier");
  return {
    identifier,
    version: attributeOf(root, "version"),
    install_location: attributeOf(root, "install-location"),
  };
}
