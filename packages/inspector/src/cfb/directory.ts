import { InspectError } from "../errors.ts";
import { noStream } from "./header.ts";

export type CfbEntryType = "storage" | "stream" | "root";

export interface CfbEntry {
  id: number;
  /** The name as stored (UTF-16 code units, so MSI's packed names survive untouched). */
  name: string;
  type: CfbEntryType;
  startSector: number;
  size: number;
  leftId: number;
  rightId: number;
  childId: number;
}

const entrySize = 128;
const typeByCode: Record<number, CfbEntryType> = { 1: "storage", 2: "stream", 5: "root" };

function corrupt(message: string): never {
  throw new InspectError("corrupt", `compound file: ${message}`);
}

/**
 * Parses the directory sectors into entries indexed by id; unallocated slots stay undefined.
 * Version 3 files keep garbage in the size's high word, so only the low word counts there.
 */
export function parseDirectory(data: Buffer, majorVersion: 3 | 4): (CfbEntry | undefined)[] {
  const entries: (CfbEntry | undefined)[] = [];
  for (let offset = 0; offset + entrySize <= data.length; offset += entrySize) {
    const id = offset / entrySize;
    const type = typeByCode[data[offset + 0x42] ?? 0];
    if (!type) {
      entries.push(undefined);
      continue;
    }
    const nameBytes = data.readUInt16LE(offset + 0x40);
    if (nameBytes > 64 || nameBytes % 2 !== 0) corrupt(`entry ${id} has a name length of ${nameBytes}`);
    const name = data.toString("utf16le", offset, offset + Math.max(0, nameBytes - 2));
    const low = data.readUInt32LE(offset + 0x78);
    const high = majorVersion === 3 ? 0 : data.readUInt32LE(offset + 0x7c);
    const size = high * 0x1_0000_0000 + low;
    entries.push({
      id,
      name,
      type,
      startSector: data.readUInt32LE(offset + 0x74),
      size,
      leftId: data.readUInt32LE(offset + 0x44),
      rightId: data.readUInt32LE(offset + 0x48),
      childId: data.readUInt32LE(offset + 0x4c),
    });
  }
  const root = entries[0];
  if (root?.type !== "root") corrupt("first directory entry is not the root");
  return entries;
}

/**
 * The members of a storage: its child and everything reachable through the left/right links of
 * the red-black tree. Ids are checked and each visited once, so a cyclic tree cannot hang.
 */
export function listMembers(entries: readonly (CfbEntry | undefined)[], storage: CfbEntry): CfbEntry[] {
  const members: CfbEntry[] = [];
  const seen = new Set<number>();
  const pending = [storage.childId];
  while (pending.length > 0) {
    const id = pending.pop() as number;
    if (id === noStream) continue;
    const entry = entries[id];
    if (!entry || entry.type === "root") corrupt(`directory link to invalid entry ${id}`);
    if (seen.has(id)) corrupt(`directory tree revisits entry ${id}`);
    seen.add(id);
    members.push(entry);
    pending.push(entry.rightId, entry.leftId);
  }
  return members;
}
