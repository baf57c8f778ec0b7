import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import { fixed32, message, messages, readFields, text, varint } from "./protobuf.ts";
import {
  type ConfigValue,
  complexToFloat,
  floatFromBits,
  type ManifestElement,
  type ResourceTable,
  type ResValue,
  toResValue,
} from "./values.ts";

/** aapt.pb.Primitive fields that hold a color (ARGB8, RGB8, ARGB4, RGB4), each as 0xAARRGGBB. */
const colorFields = [9, 10, 11, 12];

/** aapt.pb.Item: a compiled attribute or resource value. */
export function readItem(item: Buffer): ResValue {
  const fields = readFields(item);
  const ref = message(fields, 1);
  if (ref) {
    const id = varint(readFields(ref), 2) ?? 0;
    return id === 0 ? { type: "other" } : { type: "reference", id };
  }
  for (const field of [2, 3, 4, 5]) {
    // String, RawString, StyledString keep the text in field 1; FileReference keeps the path there.
    const body = message(fields, field);
    if (body) return { type: "string", text: text(readFields(body), 1) ?? "" };
  }
  const prim = message(fields, 7);
  if (!prim) return { type: "other" };
  const p = readFields(prim);
  const legacyType = varint(p, 1);
  if (legacyType !== undefined) return toResValue(legacyType, varint(p, 2) ?? 0, () => "");
  const decimal = varint(p, 6);
  if (decimal !== undefined) return { type: "int", value: decimal | 0 };
  const hex = varint(p, 7);
  if (hex !== undefined) return { type: "int", value: hex | 0 };
  const bool = varint(p, 8);
  if (bool !== undefined) return { type: "bool", value: bool !== 0 };
  for (const field of colorFields) {
    const argb = varint(p, field);
    if (argb !== undefined) return { type: "color", argb: argb >>> 0 };
  }
  const float = fixed32(p, 3);
  if (float !== undefined) return { type: "float", value: floatFromBits(float) };
  const dimension = varint(p, 13);
  if (dimension !== undefined)
    return { type: "dimension", value: complexToFloat(dimension), unit: dimension & 0xf };
  const fraction = varint(p, 14);
  if (fraction !== undefined) return { type: "fraction", value: complexToFloat(fraction) };
  return { type: "other" };
}

/** aapt.pb.XmlNode (the protobuf AndroidManifest.xml and res/*.xml of a bundle) as an element tree. */
export function parseProtoXml(data: Buffer): ManifestElement {
  let nodes = 0;
  const readElement = (element: Buffer, depth: number): ManifestElement => {
    if (++nodes > limits.xmlMaxNodes) throw new InspectError("limit_exceeded", "XML has too many nodes");
    if (depth > limits.xmlMaxDepth) throw new InspectError("limit_exceeded", "XML nests too deep");
    const fields = readFields(element);
    const children: ManifestElement[] = [];
    for (const child of messages(fields, 5)) {
      const inner = message(readFields(child), 1);
      if (inner) children.push(readElement(inner, depth + 1));
    }
    return {
      name: text(fields, 3) ?? "",
      attributes: messages(fields, 4).map((attribute) => {
        const a = readFields(attribute);
        const compiled = message(a, 6);
        return {
          namespace: text(a, 1) ?? "",
          name: text(a, 2) ?? "",
          resourceId: varint(a, 5) ?? 0,
          value: compiled ? readItem(compiled) : { type: "string", text: text(a, 3) ?? "" },
        };
      }),
      children,
    };
  };
  const root = message(readFields(data), 1);
  if (!root) throw new InspectError("corrupt", "protobuf XML has no root element");
  return readElement(root, 0);
}

/** aapt.pb.ResourceTable (a bundle module's resources.pb), indexed by resource id; values decode on lookup. */
export function parseProtoResources(data: Buffer): ResourceTable {
  const byId = new Map<number, Buffer[]>();
  for (const pkg of messages(readFields(data), 2)) {
    const p = readFields(pkg);
    const packageId = wrappedIdOf(p);
    for (const type of messages(p, 3)) {
      const t = readFields(type);
      const typeId = wrappedIdOf(t);
      for (const entry of messages(t, 3)) {
        const e = readFields(entry);
        const id = ((packageId << 24) | (typeId << 16) | wrappedIdOf(e)) >>> 0;
        byId.set(id, messages(e, 6));
      }
    }
  }
  return {
    lookup(id) {
      const found: ConfigValue[] = [];
      for (const configValue of byId.get(id) ?? []) {
        const c = readFields(configValue);
        const config = readFields(message(c, 1) ?? Buffer.alloc(0));
        const item = message(readFields(message(c, 2) ?? Buffer.alloc(0)), 4);
        if (!item) continue;
        found.push({
          locale: (text(config, 3) ?? "").replace(/-r([A-Z]{2})$/, "-$1"),
          density: varint(config, 18) ?? 0,
          value: readItem(item),
        });
      }
      return found;
    },
  };
}

function wrappedIdOf(fields: ReturnType<typeof readFields>): number {
  const bare = varint(fields, 1);
  if (bare !== undefined) return bare;
  const wrapped = message(fields, 1);
  return wrapped ? (varint(readFields(wrapped), 1) ?? 0) : 0;
}
