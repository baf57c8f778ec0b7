import { InspectError } from "../errors.ts";
import { codepageDecoder } from "./msi-strings.ts";

/**
 * The few properties of an OLE property set stream ("\u0005SummaryInformation") that are
 * strings or 16/32-bit integers; other types are skipped. Returns property id -> value.
 */
export function readPropertySet(stream: Buffer): Map<number, string | number> {
  const values = new Map<number, string | number>();
  if (stream.length < 48 || stream.readUInt16LE(0) !== 0xfffe) {
    throw new InspectError("corrupt", "summary information is not a property set");
  }
  const sectionOffset = stream.readUInt32LE(44);
  const count = stream.readUInt32LE(sectionOffset + 4);
  if (count > 1024) throw new InspectError("corrupt", `summary information claims ${count} properties`);
  let codepage = 1252;
  const pending: [number, number][] = [];
  for (let index = 0; index < count; index++) {
    const id = stream.readUInt32LE(sectionOffset + 8 + index * 8);
    const offset = sectionOffset + stream.readUInt32LE(sectionOffset + 12 + index * 8);
    pending.push([id, offset]);
    if (id === 1 && stream.readUInt16LE(offset) === 2) codepage = stream.readUInt16LE(offset + 4);
  }
  const decoder = codepageDecoder(codepage);
  for (const [id, offset] of pending) {
    const type = stream.readUInt16LE(offset);
    if (type === 2) values.set(id, stream.readInt16LE(offset + 4));
    else if (type === 3) values.set(id, stream.readInt32LE(offset + 4));
    else if (type === 0x1e) {
      const length = stream.readUInt32LE(offset + 4);
      if (offset + 8 + length > stream.length)
        throw new InspectError("corrupt", "summary string past its stream");
      values.set(id, decoder.decode(stream.subarray(offset + 8, offset + 8 + length)).replace(/\0+$/, ""));
    }
  }
  return values;
}
