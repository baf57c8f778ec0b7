import { InspectError } from "../../errors.ts";
import { message, messages, type ProtoField, readFields, text } from "../protobuf.ts";
import { type BinaryConfig, binaryConfig } from "./config.ts";
import { type BinaryValue, fileReference, itemValue, plain, resType, uint32 } from "./res-value.ts";

/** ResTable_map keys of attribute definitions and plurals (ResourceTypes.h). */
const mapKey = {
  type: 0x01000000,
  min: 0x01000001,
  max: 0x01000002,
  other: 0x01000004,
  zero: 0x01000005,
  one: 0x01000006,
  two: 0x01000007,
  few: 0x01000008,
  many: 0x01000009,
} as const;
/** aapt.pb.Plural.Arity order: ZERO, ONE, TWO, FEW, MANY, OTHER. */
const pluralKeys = [mapKey.zero, mapKey.one, mapKey.two, mapKey.few, mapKey.many, mapKey.other];
const int32Min = 0x80000000;
const int32Max = 0x7fffffff;

export interface BagItem {
  key: number;
  value: BinaryValue;
}

export type EntryValue =
  | { kind: "item"; value: BinaryValue }
  | { kind: "bag"; parent: number; items: BagItem[] };

export interface ConfiguredValue {
  config: BinaryConfig;
  weak: boolean;
  value: EntryValue;
}

export interface ResourceEntry {
  id: number;
  name: string;
  isPublic: boolean;
  values: ConfiguredValue[];
}

export interface ResourceType {
  id: number;
  name: string;
  entries: Map<number, ResourceEntry>;
}

export interface ResourcePackage {
  id: number;
  name: string;
  types: Map<number, ResourceType>;
}

/** Types that exist only for R classes and never reach resources.arsc. */
const compileTimeTypes = new Set(["styleable", "macro"]);

/** A package, type or entry id: a bare varint in old aapt2 output, a wrapper message ({id = 1}) in newer. */
function idOf(fields: ProtoField[]): number | undefined {
  const bare = uint32(fields, 1);
  if (bare !== undefined) return bare;
  const wrapped = message(fields, 1);
  return wrapped ? (uint32(readFields(wrapped), 1) ?? 0) : undefined;
}

function item(body: Buffer | undefined): BinaryValue {
  return body ? itemValue(body) : plain(resType.null, 0);
}

function referenceId(reference: Buffer | undefined): number {
  return reference ? (uint32(readFields(reference), 2) ?? 0) : 0;
}

/** aapt.pb.CompoundValue as a bag (map entry); null for compile-time-only values. */
function compoundValue(compound: Buffer): EntryValue | null {
  const fields = readFields(compound);
  const attribute = message(fields, 1);
  if (attribute) {
    const a = readFields(attribute);
    const isFlags = ((uint32(a, 1) ?? 0) & 0x20000) !== 0;
    const items: BagItem[] = [{ key: mapKey.type, value: plain(resType.intDec, uint32(a, 1) ?? 0) }];
    const min = uint32(a, 2) ?? 0;
    const max = uint32(a, 3) ?? 0;
    if (min !== int32Min) items.push({ key: mapKey.min, value: plain(resType.intDec, min) });
    if (max !== int32Max) items.push({ key: mapKey.max, value: plain(resType.intDec, max) });
    for (const symbol of messages(a, 4)) {
      const s = readFields(symbol);
      const dataType = uint32(s, 5) ?? (isFlags ? resType.intHex : resType.intDec);
      items.push({ key: referenceId(message(s, 3)), value: plain(dataType, uint32(s, 4) ?? 0) });
    }
    return { kind: "bag", parent: 0, items };
  }
  const style = message(fields, 2);
  if (style) {
    const s = readFields(style);
    const items = messages(s, 3).map((entry) => {
      const e = readFields(entry);
      return { key: referenceId(message(e, 3)), value: item(message(e, 4)) };
    });
    // The runtime merges a style with its parents by walking both key lists in order.
    items.sort((x, y) => x.key - y.key);
    return { kind: "bag", parent: referenceId(message(s, 1)), items };
  }
  const array = message(fields, 4);
  if (array) {
    const items = messages(readFields(array), 1).map((element, i) => ({
      key: mapKey.min + i,
      value: item(message(readFields(element), 3)),
    }));
    return { kind: "bag", parent: 0, items };
  }
  const plural = message(fields, 5);
  if (plural) {
    const byArity = new Map<number, BinaryValue>();
    for (const entry of messages(readFields(plural), 1)) {
      const e = readFields(entry);
      byArity.set(uint32(e, 3) ?? 0, item(message(e, 4)));
    }
    const items: BagItem[] = [];
    pluralKeys.forEach((key, arity) => {
      const value = byArity.get(arity);
      if (value) items.push({ key, value });
    });
    return { kind: "bag", parent: 0, items };
  }
  return null;
}

export interface ModuleResources {
  packages: ResourcePackage[];
  /** Paths of res/ files stored as protobuf XML, which must become binary XML in the APK. */
  protoXmlFiles: Set<string>;
  /**
   * XML files whose reference names no kind: raw files (res/raw/x.xml, kept as they are) in current
   * bundles, but any XML in bundles from the first aapt2 versions, which did not record the kind.
   */
  untypedXmlFiles: Set<string>;
}

/**
 * Reads a module's resources.pb (aapt.pb.ResourceTable) into packages, types and entries whose
 * values are ready to flatten. Several modules are merged into `into` (their packages have
 * distinct ids: 0x7f for the base, lower ones for features).
 */
export function readResourceTable(data: Buffer, into?: ModuleResources): ModuleResources {
  const result = into ?? {
    packages: [],
    protoXmlFiles: new Set<string>(),
    untypedXmlFiles: new Set<string>(),
  };
  const context: ReadContext = {
    xmlFiles: { proto: result.protoXmlFiles, untyped: result.untypedXmlFiles },
    configs: new Map(),
  };
  for (const pkg of messages(readFields(data), 2)) {
    const p = readFields(pkg);
    const packageId = idOf(p) ?? 0x7f;
    let target = result.packages.find((existing) => existing.id === packageId);
    if (!target) {
      target = { id: packageId, name: text(p, 2) ?? "", types: new Map() };
      result.packages.push(target);
    }
    for (const type of messages(p, 3)) {
      const t = readFields(type);
      const typeId = idOf(t);
      const typeName = text(t, 2) ?? "";
      if (typeId === undefined || compileTimeTypes.has(typeName)) continue;
      if (typeId < 1 || typeId > 0xff)
        throw new InspectError("corrupt", `resource type id ${typeId} out of range`);
      let targetType = target.types.get(typeId);
      if (!targetType) {
        targetType = { id: typeId, name: typeName, entries: new Map() };
        target.types.set(typeId, targetType);
      }
      for (const entry of messages(t, 3)) readEntry(readFields(entry), targetType, context);
    }
  }
  return result;
}

interface ReadContext {
  xmlFiles: { proto: Set<string>; untyped: Set<string> };
  /** Tables repeat a handful of configurations over thousands of values: each is decoded once. */
  configs: Map<string, BinaryConfig>;
}

function configFor(configuration: Buffer | undefined, configs: Map<string, BinaryConfig>): BinaryConfig {
  const key = configuration ? configuration.toString("latin1") : "";
  let config = configs.get(key);
  if (!config) {
    config = binaryConfig(configuration);
    configs.set(key, config);
  }
  return config;
}

function readEntry(e: ProtoField[], type: ResourceType, { xmlFiles, configs }: ReadContext): void {
  const entryId = idOf(e);
  if (entryId === undefined) return;
  if (entryId > 0xffff) throw new InspectError("corrupt", `resource entry id ${entryId} out of range`);
  const visibility = message(e, 3);
  const entry: ResourceEntry = type.entries.get(entryId) ?? {
    id: entryId,
    name: text(e, 2) ?? "",
    isPublic: visibility !== undefined && uint32(readFields(visibility), 1) === 2,
    values: [],
  };
  type.entries.set(entryId, entry);
  // Newer aapt2 keeps config values in field 6; the first proto format had them in field 4.
  const configValues = messages(e, 6).length > 0 ? messages(e, 6) : messages(e, 4);
  for (const configValue of configValues) {
    const c = readFields(configValue);
    const v = readFields(message(c, 2) ?? Buffer.alloc(0));
    const body = message(v, 4);
    const compound = message(v, 5);
    let value: EntryValue | null = null;
    if (body) {
      value = { kind: "item", value: itemValue(body) };
      const file = fileReference(body);
      if (file?.type === 3) xmlFiles.proto.add(file.path);
      else if (file?.type === 0 && file.path.endsWith(".xml")) xmlFiles.untyped.add(file.path);
    } else if (compound) value = compoundValue(compound);
    if (value)
      entry.values.push({ config: configFor(message(c, 1), configs), weak: uint32(v, 3) === 1, value });
  }
}
