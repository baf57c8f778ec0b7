import { InspectError } from "../../errors.ts";
import { message, messages, type ProtoField, readFields, text } from "../protobuf.ts";
import type { Span } from "./string-pool-writer.ts";

/** Res_value data types (ResourceTypes.h). */
export const resType = {
  null: 0x00,
  reference: 0x01,
  attribute: 0x02,
  string: 0x03,
  float: 0x04,
  dimension: 0x05,
  fraction: 0x06,
  dynamicReference: 0x07,
  dynamicAttribute: 0x08,
  intDec: 0x10,
  intHex: 0x11,
  intBoolean: 0x12,
  colorArgb8: 0x1c,
  colorRgb8: 0x1d,
  colorArgb4: 0x1e,
  colorRgb4: 0x1f,
} as const;

/**
 * A value as it will be flattened: a plain Res_value, or a string whose pool index is only known
 * once every string of the file is collected.
 */
export type BinaryValue =
  | { kind: "plain"; dataType: number; data: number }
  | { kind: "string"; text: string }
  | { kind: "styled"; text: string; spans: Span[] };

export const plain = (dataType: number, data: number): BinaryValue => ({ kind: "plain", dataType, data });

/** A varint field's exact low 32 bits (int32 fields are sign-extended to 64 bits on the wire). */
export function uint32(fields: ProtoField[], field: number): number | undefined {
  for (const f of fields) if (f.field === field && f.wire === 0) return f.low32;
  return undefined;
}

function fixed(fields: ProtoField[], field: number): number | undefined {
  for (const f of fields) if (f.field === field && f.wire === 5) return f.value;
  return undefined;
}

/** aapt.pb.Reference: a plain, theme-attribute or dynamic reference by id. */
export function referenceValue(reference: Buffer): BinaryValue {
  const r = readFields(reference);
  const isAttribute = uint32(r, 1) === 1;
  const dynamic = message(r, 5);
  const isDynamic = dynamic !== undefined && uint32(readFields(dynamic), 1) === 1;
  const dataType = isAttribute
    ? isDynamic
      ? resType.dynamicAttribute
      : resType.attribute
    : isDynamic
      ? resType.dynamicReference
      : resType.reference;
  return plain(dataType, uint32(r, 2) ?? 0);
}

/** Primitive fields that map straight onto a data type (the oneof of aapt.pb.Primitive). */
const primitiveVarints: [field: number, dataType: number][] = [
  [13, resType.dimension],
  [14, resType.fraction],
  [6, resType.intDec],
  [7, resType.intHex],
  [9, resType.colorArgb8],
  [10, resType.colorRgb8],
  [11, resType.colorArgb4],
  [12, resType.colorRgb4],
];

function primitiveValue(primitive: Buffer): BinaryValue {
  const p = readFields(primitive);
  for (const f of p) {
    // Old aapt2 wrote {type = 1, data = 2}; newer ones a oneof where 1 and 2 are the null and empty messages.
    if (f.field === 1 && f.wire === 0) return plain(f.low32, uint32(p, 2) ?? 0);
    if (f.field === 1 && f.wire === 2) return plain(resType.null, 0);
    if (f.field === 2 && f.wire === 2) return plain(resType.null, 1);
  }
  for (const [field, dataType] of primitiveVarints) {
    const value = uint32(p, field);
    if (value !== undefined) return plain(dataType, value);
  }
  const bool = uint32(p, 8);
  if (bool !== undefined) return plain(resType.intBoolean, bool !== 0 ? 0xffffffff : 0);
  const float = fixed(p, 3);
  if (float !== undefined) return plain(resType.float, float);
  const legacyDimension = fixed(p, 4);
  if (legacyDimension !== undefined) return plain(resType.dimension, legacyDimension);
  const legacyFraction = fixed(p, 5);
  if (legacyFraction !== undefined) return plain(resType.fraction, legacyFraction);
  // proto3 leaves a zero out entirely: an integer 0 (or false) has no field at all.
  return plain(resType.intDec, 0);
}

function styledValue(styled: Buffer): BinaryValue {
  const s = readFields(styled);
  const spans = messages(s, 2).map((span) => {
    const f = readFields(span);
    return { tag: text(f, 1) ?? "", firstChar: uint32(f, 2) ?? 0, lastChar: uint32(f, 3) ?? 0 };
  });
  const value = text(s, 1) ?? "";
  return spans.length > 0 ? { kind: "styled", text: value, spans } : { kind: "string", text: value };
}

/** aapt.pb.Item as a binary value (what aapt2's Item::Flatten writes). */
export function itemValue(item: Buffer): BinaryValue {
  const fields = readFields(item);
  for (const f of fields) {
    if (f.wire !== 2) continue;
    switch (f.field) {
      case 1:
        return referenceValue(f.value);
      case 2:
      case 3:
        return { kind: "string", text: text(readFields(f.value), 1) ?? "" };
      case 4:
        return styledValue(f.value);
      case 5:
        return { kind: "string", text: text(readFields(f.value), 1) ?? "" };
      case 6:
        // An id resource holds no value; aapt2 writes a false boolean for it.
        return plain(resType.intBoolean, 0);
      case 7:
        return primitiveValue(f.value);
    }
  }
  throw new InspectError("corrupt", "protobuf resource item has no value");
}

/** The path and kind (0 unknown, 1 PNG, 2 binary XML, 3 proto XML) of an item that is a file reference. */
export function fileReference(item: Buffer): { path: string; type: number } | null {
  const file = message(readFields(item), 5);
  if (!file) return null;
  const f = readFields(file);
  return { path: text(f, 1) ?? "", type: uint32(f, 2) ?? 0 };
}

/** Writes a Res_value (8 bytes) at `at`; strings must already be resolved to their pool index. */
export function writeResValue(out: Buffer, at: number, dataType: number, data: number): void {
  out.writeUInt16LE(8, at);
  out.writeUInt8(0, at + 2);
  out.writeUInt8(dataType, at + 3);
  out.writeUInt32LE(data >>> 0, at + 4);
}
