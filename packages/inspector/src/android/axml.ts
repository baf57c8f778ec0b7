import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import { readStringPool, type StringPool } from "./string-pool.ts";
import { type ManifestAttribute, type ManifestElement, toResValue } from "./values.ts";

const chunk = {
  stringPool: 0x0001,
  xml: 0x0003,
  startNamespace: 0x0100,
  endNamespace: 0x0101,
  startElement: 0x0102,
  endElement: 0x0103,
  cdata: 0x0104,
  resourceMap: 0x0180,
} as const;
const noIndex = 0xffffffff;

function corrupt(message: string): never {
  throw new InspectError("corrupt", `binary XML: ${message}`);
}

function readAttributes(
  buf: Buffer,
  at: number,
  end: number,
  pool: StringPool,
  resourceIds: number[],
): ManifestAttribute[] {
  const headerSize = buf.readUInt16LE(at + 2);
  const ext = at + headerSize;
  if (ext + 20 > end) corrupt("element header runs past its chunk");
  const attributeStart = buf.readUInt16LE(ext + 8);
  const attributeSize = buf.readUInt16LE(ext + 10);
  const attributeCount = buf.readUInt16LE(ext + 12);
  if (attributeSize < 20) corrupt("attribute records too small");
  if (ext + attributeStart + attributeCount * attributeSize > end) corrupt("attributes run past their chunk");
  const stringOrEmpty = (index: number) => (index === noIndex ? "" : pool.get(index));
  const attributes: ManifestAttribute[] = [];
  for (let i = 0; i < attributeCount; i++) {
    const a = ext + attributeStart + i * attributeSize;
    const nameIndex = buf.readUInt32LE(a + 4);
    const rawValue = buf.readUInt32LE(a + 8);
    const dataType = buf.readUInt8(a + 15);
    const data = buf.readUInt32LE(a + 16);
    let value = toResValue(dataType, data, (index) => pool.get(index));
    if (value.type === "other" && rawValue !== noIndex) value = { type: "string", text: pool.get(rawValue) };
    attributes.push({
      namespace: stringOrEmpty(buf.readUInt32LE(a)),
      name: stringOrEmpty(nameIndex),
      resourceId: resourceIds[nameIndex] ?? 0,
      value,
    });
  }
  return attributes;
}

/**
 * Parses an Android binary XML document (compiled AndroidManifest.xml or res/*.xml) into an
 * element tree. Depth and node counts are bounded; every chunk must lie inside its parent.
 */
export function parseBinaryXml(buf: Buffer): ManifestElement {
  try {
    return parseDocument(buf);
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) corrupt(error.message);
    throw error;
  }
}

function parseDocument(buf: Buffer): ManifestElement {
  if (buf.length < 8 || buf.readUInt16LE(0) !== chunk.xml) corrupt("not a binary XML document");
  const headerSize = buf.readUInt16LE(2);
  const end = Math.min(buf.readUInt32LE(4), buf.length);
  let pool: StringPool | null = null;
  let resourceIds: number[] = [];
  const stack: ManifestElement[] = [];
  let root: ManifestElement | null = null;
  let nodes = 0;
  for (let at = headerSize; at + 8 <= end; ) {
    const type = buf.readUInt16LE(at);
    const size = buf.readUInt32LE(at + 4);
    if (size < 8 || at + size > end) corrupt(`chunk at ${at} has a bad size`);
    const chunkEnd = at + size;
    switch (type) {
      case chunk.stringPool:
        pool = readStringPool(buf.subarray(0, chunkEnd), at);
        break;
      case chunk.resourceMap: {
        const count = Math.min((size - 8) / 4, 1 << 16) | 0;
        resourceIds = Array.from({ length: count }, (_, i) => buf.readUInt32LE(at + 8 + i * 4));
        break;
      }
      case chunk.startElement: {
        if (!pool) corrupt("element before the string pool");
        if (++nodes > limits.xmlMaxNodes)
          throw new InspectError("limit_exceeded", "binary XML has too many nodes");
        if (stack.length >= limits.xmlMaxDepth)
          throw new InspectError("limit_exceeded", "binary XML nests too deep");
        const ext = at + buf.readUInt16LE(at + 2);
        const element: ManifestElement = {
          name: pool.get(buf.readUInt32LE(ext + 4)),
          attributes: readAttributes(buf, at, chunkEnd, pool, resourceIds),
          children: [],
        };
        const parent = stack.at(-1);
        if (parent) parent.children.push(element);
        else if (!root) root = element;
        else corrupt("more than one root element");
        stack.push(element);
        break;
      }
      case chunk.endElement:
        if (!stack.pop()) corrupt("unbalanced end element");
        break;
      default:
        break; // namespaces, CDATA and unknown chunks carry nothing the inspector reads
    }
    at = chunkEnd;
  }
  if (!root) corrupt("no root element");
  return root;
}
