import { InspectError } from "../../errors.ts";
import { type BinaryConfig, compareConfigs, configSize } from "./config.ts";
import { type BinaryValue, resType, writeResValue } from "./res-value.ts";
import type { ConfiguredValue, ResourceEntry, ResourcePackage, ResourceType } from "./resource-model.ts";
import { StringPoolWriter } from "./string-pool-writer.ts";

const chunk = { table: 0x0002, package: 0x0200, type: 0x0201, typeSpec: 0x0202 } as const;
const packageHeaderSize = 288;
const typeHeaderSize = 20 + configSize;
const flag = { complex: 0x0001, public: 0x0002, weak: 0x0004 } as const;
const specPublic = 0x40000000;
const maxOffsetBytesPerType = 64 * 1024 * 1024;

/** A chunk header; `allocate` makes room for a body written in the same buffer. */
function header(type: number, headerSize: number, size: number, allocate = headerSize): Buffer {
  const out = Buffer.alloc(allocate);
  out.writeUInt16LE(type, 0);
  out.writeUInt16LE(headerSize, 2);
  out.writeUInt32LE(size, 4);
  return out;
}

const totalLength = (parts: Buffer[]) => parts.reduce((sum, part) => sum + part.length, 0);

function eachValue(packages: ResourcePackage[], visit: (value: BinaryValue) => void): void {
  for (const pkg of packages)
    for (const type of pkg.types.values())
      for (const entry of type.entries.values())
        for (const { value } of entry.values) {
          if (value.kind === "item") visit(value.value);
          else for (const bagItem of value.items) visit(bagItem.value);
        }
}

/**
 * The global value pool: styled strings first (their index doubles as their style index), then
 * every plain string. Each styled value gets its own slot, found again by object identity.
 */
function valuePool(packages: ResourcePackage[]): {
  pool: StringPoolWriter;
  styled: Map<BinaryValue, number>;
} {
  const pool = new StringPoolWriter(true);
  const styled = new Map<BinaryValue, number>();
  eachValue(packages, (value) => {
    if (value.kind === "styled") styled.set(value, pool.addStyled(value.text, value.spans));
  });
  eachValue(packages, (value) => {
    if (value.kind === "string") pool.add(value.text);
  });
  return { pool, styled };
}

/** Flattens module resources into one resources.arsc (a ResTable with one chunk per package). */
export function writeResourceTable(packages: ResourcePackage[]): Buffer {
  const sorted = [...packages].sort((a, b) => b.id - a.id);
  const { pool, styled } = valuePool(sorted);
  const resolve = (value: BinaryValue): [number, number] => {
    if (value.kind === "plain") return [value.dataType, value.data];
    if (value.kind === "styled") return [resType.string, styled.get(value) ?? 0];
    return [resType.string, pool.find(value.text)];
  };
  const packageChunks = sorted.map((pkg) => writePackage(pkg, resolve));
  const strings = pool.build();
  const size = 12 + strings.length + totalLength(packageChunks);
  const table = header(chunk.table, 12, size);
  table.writeUInt32LE(sorted.length, 8);
  return Buffer.concat([table, strings, ...packageChunks]);
}

type Resolve = (value: BinaryValue) => [dataType: number, data: number];

function writePackage(pkg: ResourcePackage, resolve: Resolve): Buffer {
  const types = [...pkg.types.values()].sort((a, b) => a.id - b.id);
  const typeNames = new StringPoolWriter(true);
  let expected = 1;
  for (const type of types) {
    // Type ids index the type name pool; a gap gets a placeholder name, as aapt2 writes.
    for (; expected < type.id; expected++) typeNames.append(`?${expected}`);
    typeNames.append(type.name);
    expected = type.id + 1;
  }
  const keyNames = new StringPoolWriter(true);
  for (const type of types) for (const entry of type.entries.values()) keyNames.add(entry.name);
  const typePool = typeNames.build();
  const keyPool = keyNames.build();
  const body: Buffer[] = [];
  for (const type of types) body.push(...writeType(type, keyNames, resolve));
  const size = packageHeaderSize + typePool.length + keyPool.length + totalLength(body);
  const out = header(chunk.package, packageHeaderSize, size);
  out.writeUInt32LE(pkg.id, 8);
  const name = Buffer.from(pkg.name, "utf16le").subarray(0, 254);
  name.copy(out, 12);
  out.writeUInt32LE(packageHeaderSize, 268);
  out.writeUInt32LE(typeNames.count, 272);
  out.writeUInt32LE(packageHeaderSize + typePool.length, 276);
  out.writeUInt32LE(keyNames.count, 280);
  return Buffer.concat([out, typePool, keyPool, ...body]);
}

function writeType(type: ResourceType, keys: StringPoolWriter, resolve: Resolve): Buffer[] {
  const entries = [...type.entries.values()];
  const entryCount = Math.max(0, ...entries.map((entry) => entry.id + 1));
  const spec = header(chunk.typeSpec, 16, 16 + entryCount * 4, 16 + entryCount * 4);
  spec.writeUInt8(type.id, 8);
  spec.writeUInt32LE(entryCount, 12);
  const configs = new Map<
    string,
    { config: BinaryConfig; values: Map<number, [ResourceEntry, ConfiguredValue]> }
  >();
  for (const entry of entries) {
    let dimensions = entry.isPublic ? specPublic : 0;
    for (const value of entry.values) {
      dimensions |= value.config.dimensions;
      let group = configs.get(value.config.key);
      if (!group) {
        group = { config: value.config, values: new Map() };
        configs.set(value.config.key, group);
      }
      if (group.values.has(entry.id))
        throw new InspectError(
          "corrupt",
          `resource ${type.name}/${entry.name} has two values for one configuration`,
        );
      group.values.set(entry.id, [entry, value]);
    }
    spec.writeUInt32LE(dimensions >>> 0, 16 + entry.id * 4);
  }
  spec.writeUInt16LE(configs.size, 10);
  // Entry offsets cost 4 bytes per entry id per configuration, however few values exist: a table
  // claiming high entry ids in many configurations could otherwise grow far past its input.
  if (entryCount * 4 * configs.size > maxOffsetBytesPerType)
    throw new InspectError("limit_exceeded", `resource type ${type.name} needs too large a table`);
  const chunks = [spec];
  const ordered = [...configs.values()].sort((a, b) => compareConfigs(a.config.bytes, b.config.bytes));
  for (const { config, values } of ordered) {
    // One buffer per type chunk: header, offsets, then every entry written in place.
    let size = 0;
    for (const [, configured] of values.values()) size += entrySize(configured);
    const entriesStart = typeHeaderSize + entryCount * 4;
    const out = header(chunk.type, typeHeaderSize, entriesStart + size, entriesStart + size);
    out.writeUInt8(type.id, 8);
    out.writeUInt32LE(entryCount, 12);
    out.writeUInt32LE(entriesStart, 16);
    config.bytes.copy(out, 20);
    out.fill(0xff, typeHeaderSize, entriesStart);
    let at = entriesStart;
    for (let id = 0; id < entryCount; id++) {
      const found = values.get(id);
      if (!found) continue;
      out.writeUInt32LE(at - entriesStart, typeHeaderSize + id * 4);
      at = writeEntry(out, at, found[0], found[1], keys, resolve);
    }
    chunks.push(out);
  }
  return chunks;
}

function entrySize(configured: ConfiguredValue): number {
  return configured.value.kind === "item" ? 16 : 16 + configured.value.items.length * 12;
}

/** Writes one ResTable_entry (simple, or a map entry with its items) at `at`; returns where it ends. */
function writeEntry(
  out: Buffer,
  at: number,
  entry: ResourceEntry,
  configured: ConfiguredValue,
  keys: StringPoolWriter,
  resolve: Resolve,
): number {
  const flags = (entry.isPublic ? flag.public : 0) | (configured.weak ? flag.weak : 0);
  const value = configured.value;
  if (value.kind === "item") {
    out.writeUInt16LE(8, at);
    out.writeUInt16LE(flags, at + 2);
    out.writeUInt32LE(keys.find(entry.name), at + 4);
    writeResValue(out, at + 8, ...resolve(value.value));
    return at + 16;
  }
  out.writeUInt16LE(16, at);
  out.writeUInt16LE(flags | flag.complex, at + 2);
  out.writeUInt32LE(keys.find(entry.name), at + 4);
  out.writeUInt32LE(value.parent >>> 0, at + 8);
  out.writeUInt32LE(value.items.length, at + 12);
  value.items.forEach((bagItem, i) => {
    out.writeUInt32LE(bagItem.key >>> 0, at + 16 + i * 12);
    writeResValue(out, at + 20 + i * 12, ...resolve(bagItem.value));
  });
  return at + entrySize(configured);
}
