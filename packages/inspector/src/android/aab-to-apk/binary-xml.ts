import { resType, writeResValue } from "./res-value.ts";
import { StringPoolWriter } from "./string-pool-writer.ts";
import { toolsNamespace, type XmlAttribute, type XmlElement, type XmlNode } from "./xml-tree.ts";

const chunk = {
  xml: 0x0003,
  resourceMap: 0x0180,
  startNamespace: 0x0100,
  endNamespace: 0x0101,
  startElement: 0x0102,
  endElement: 0x0103,
  cdata: 0x0104,
} as const;
const idAttribute = 0x010100d0;
const none = 0xffffffff;

export interface BinaryXmlOptions {
  /** UTF-16 strings, as aapt2 writes the manifest (old platforms read only UTF-16 there). */
  utf16: boolean;
}

/**
 * aapt2's attribute order: attributes with a resource id first, by id (the runtime binary-searches
 * them), then the others by namespace and name. Attributes of the tools namespace are dropped.
 */
function sortedAttributes(element: XmlElement): XmlAttribute[] {
  return element.attributes
    .filter((a) => a.namespace !== toolsNamespace)
    .map((attribute, order) => ({ attribute, order }))
    .sort((a, b) => {
      const x = a.attribute;
      const y = b.attribute;
      if (x.resourceId && y.resourceId) return x.resourceId - y.resourceId || a.order - b.order;
      if (x.resourceId || y.resourceId) return x.resourceId ? -1 : 1;
      if (x.namespace !== y.namespace) return x.namespace < y.namespace ? -1 : 1;
      if (x.name !== y.name) return x.name < y.name ? -1 : 1;
      return a.order - b.order;
    })
    .map(({ attribute }) => attribute);
}

const isBlank = (text: string) => text.trim() === "";
const mappedKey = (attribute: XmlAttribute) => `${attribute.resourceId}:${attribute.name}`;

/**
 * Flattens an XML tree to Android's binary XML (ResXMLTree), as aapt2's XmlFlattener does: one
 * string pool whose first strings are the attribute names mapped to resource ids (sorted by id,
 * with the resource map chunk listing those ids), then every other string in first-use order.
 */
export function writeBinaryXml(root: XmlElement, options: BinaryXmlOptions): Buffer {
  const pool = new StringPoolWriter(!options.utf16);
  const mapped = new Map<string, XmlAttribute>();
  const plainStrings: string[] = [];
  const visit = (node: XmlNode) => {
    if (node.kind === "text") {
      if (!isBlank(node.text)) plainStrings.push(node.text);
      return;
    }
    const namespaces = node.namespaces.filter((n) => n.uri !== toolsNamespace);
    for (const n of namespaces) plainStrings.push(n.prefix, n.uri);
    if (node.namespace) plainStrings.push(node.namespace);
    if (node.name) plainStrings.push(node.name);
    for (const a of sortedAttributes(node)) {
      if (a.namespace) plainStrings.push(a.namespace);
      if (a.resourceId) {
        if (!mapped.has(mappedKey(a))) mapped.set(mappedKey(a), a);
      } else plainStrings.push(a.name);
      if (a.value?.kind !== "plain") plainStrings.push(a.raw, a.value ? a.value.text : a.raw);
    }
    for (const child of node.children) visit(child);
    plainStrings.push(node.name);
  };
  visit(root);
  const mappedNames = [...mapped.values()].sort((a, b) => a.resourceId - b.resourceId);
  const mappedIndex = new Map(mappedNames.map((a) => [mappedKey(a), pool.append(a.name)]));
  for (const text of plainStrings) pool.add(text);

  const nullable = (text: string) => (text ? pool.find(text) : none);
  const body: Buffer[] = [];
  const node = (type: number, line: number, extension: number): Buffer => {
    const out = Buffer.alloc(16 + extension);
    out.writeUInt16LE(type, 0);
    out.writeUInt16LE(16, 2);
    out.writeUInt32LE(out.length, 4);
    out.writeUInt32LE(line, 8);
    out.writeUInt32LE(none, 12);
    body.push(out);
    return out;
  };
  const writeElement = (element: XmlElement) => {
    const namespaces = element.namespaces.filter((n) => n.uri !== toolsNamespace);
    for (const n of namespaces) {
      const out = node(chunk.startNamespace, n.line, 8);
      out.writeUInt32LE(pool.find(n.prefix), 16);
      out.writeUInt32LE(pool.find(n.uri), 20);
    }
    const attributes = sortedAttributes(element);
    const start = node(chunk.startElement, element.line, 20 + attributes.length * 20);
    start.writeUInt32LE(nullable(element.namespace), 16);
    start.writeUInt32LE(nullable(element.name), 20);
    start.writeUInt16LE(20, 24);
    start.writeUInt16LE(20, 26);
    start.writeUInt16LE(attributes.length, 28);
    attributes.forEach((a, i) => {
      const at = 36 + i * 20;
      if (a.resourceId === idAttribute) start.writeUInt16LE(i + 1, 30);
      else if (!a.namespace && a.name === "class") start.writeUInt16LE(i + 1, 32);
      else if (!a.namespace && a.name === "style") start.writeUInt16LE(i + 1, 34);
      start.writeUInt32LE(nullable(a.namespace), at);
      start.writeUInt32LE(a.resourceId ? (mappedIndex.get(mappedKey(a)) ?? none) : pool.find(a.name), at + 4);
      // Like aapt2, the source text stays only where no compiled (non-string) value replaces it.
      start.writeUInt32LE(a.value?.kind === "plain" ? none : pool.find(a.raw), at + 8);
      if (a.value?.kind === "plain") writeResValue(start, at + 12, a.value.dataType, a.value.data);
      else writeResValue(start, at + 12, resType.string, pool.find(a.value ? a.value.text : a.raw));
    });
    for (const child of element.children) {
      if (child.kind === "element") writeElement(child);
      else if (!isBlank(child.text)) {
        const out = node(chunk.cdata, child.line, 12);
        out.writeUInt32LE(pool.find(child.text), 16);
      }
    }
    const end = node(chunk.endElement, element.line, 8);
    end.writeUInt32LE(nullable(element.namespace), 16);
    end.writeUInt32LE(pool.find(element.name), 20);
    for (const n of [...namespaces].reverse()) {
      const out = node(chunk.endNamespace, n.line, 8);
      out.writeUInt32LE(pool.find(n.prefix), 16);
      out.writeUInt32LE(pool.find(n.uri), 20);
    }
  };
  writeElement(root);

  const strings = pool.build();
  const resourceMap = Buffer.alloc(8 + mappedNames.length * 4);
  resourceMap.writeUInt16LE(chunk.resourceMap, 0);
  resourceMap.writeUInt16LE(8, 2);
  resourceMap.writeUInt32LE(resourceMap.length, 4);
  mappedNames.forEach((a, i) => {
    resourceMap.writeUInt32LE(a.resourceId, 8 + i * 4);
  });
  const header = Buffer.alloc(8);
  const size = 8 + strings.length + resourceMap.length + body.reduce((sum, part) => sum + part.length, 0);
  header.writeUInt16LE(chunk.xml, 0);
  header.writeUInt16LE(8, 2);
  header.writeUInt32LE(size, 4);
  return Buffer.concat([header, strings, resourceMap, ...body]);
}
