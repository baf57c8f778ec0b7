import { InspectError } from "../errors.ts";

/** One field of a protobuf message: varints as numbers, length-delimited fields as views into the buffer. */
export type ProtoField =
  /** `low32`: the varint's low 32 bits, exact even when `value` (a double) is not (negative int32 takes 10 bytes). */
  | { field: number; wire: 0; value: number; low32: number }
  | { field: number; wire: 2; value: Buffer }
  | { field: number; wire: 5; value: number };

function corrupt(message: string): never {
  throw new InspectError("corrupt", `protobuf: ${message}`);
}

function readVarint(buf: Buffer, start: number): { value: number; low32: number; next: number } {
  let value = 0;
  let low32 = 0;
  let scale = 1;
  for (let at = start; at < buf.length && at < start + 10; at++) {
    const byte = buf[at] ?? 0;
    value += (byte & 0x7f) * scale;
    if (scale < 2 ** 32) low32 = (low32 + (byte & 0x7f) * scale) % 2 ** 32;
    scale *= 128;
    if ((byte & 0x80) === 0) return { value, low32, next: at + 1 };
  }
  corrupt("truncated varint");
}

/**
 * Splits a message into its fields without a schema. 32-bit fields are kept as unsigned numbers
 * (floats in compiled values), 64-bit ones skipped; groups are refused. Lengths are checked against
 * the message, so a hostile length never reads past it.
 */
export function readFields(buf: Buffer): ProtoField[] {
  const fields: ProtoField[] = [];
  for (let at = 0; at < buf.length; ) {
    const key = readVarint(buf, at);
    const field = Math.floor(key.value / 8);
    const wire = key.value % 8;
    at = key.next;
    if (field === 0) corrupt("field number 0");
    if (wire === 0) {
      const v = readVarint(buf, at);
      fields.push({ field, wire: 0, value: v.value, low32: v.low32 });
      at = v.next;
    } else if (wire === 2) {
      const length = readVarint(buf, at);
      const end = length.next + length.value;
      if (end > buf.length) corrupt("length-delimited field runs past its message");
      fields.push({ field, wire: 2, value: buf.subarray(length.next, end) });
      at = end;
    } else if (wire === 1) at += 8;
    else if (wire === 5) {
      if (at + 4 > buf.length) corrupt("fixed-width field runs past its message");
      fields.push({ field, wire: 5, value: buf.readUInt32LE(at) });
      at += 4;
    } else corrupt(`unsupported wire type ${wire}`);
    if (at > buf.length) corrupt("fixed-width field runs past its message");
  }
  return fields;
}

export function messages(fields: ProtoField[], field: number): Buffer[] {
  const found: Buffer[] = [];
  for (const f of fields) if (f.field === field && f.wire === 2) found.push(f.value);
  return found;
}

export function message(fields: ProtoField[], field: number): Buffer | undefined {
  return messages(fields, field)[0];
}

export function text(fields: ProtoField[], field: number): string | undefined {
  return message(fields, field)?.toString("utf8");
}

export function varint(fields: ProtoField[], field: number): number | undefined {
  for (const f of fields) if (f.field === field && f.wire === 0) return f.value;
  return undefined;
}

export function fixed32(fields: ProtoField[], field: number): number | undefined {
  for (const f of fields) if (f.field === field && f.wire === 5) return f.value;
  return undefined;
}
