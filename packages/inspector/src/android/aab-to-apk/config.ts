import { type ProtoField, readFields, text } from "../protobuf.ts";
import { uint32 } from "./res-value.ts";

/** sizeof(ResTable_config) since Android 9, what aapt2 writes. */
export const configSize = 64;

/** ResTable_config::CONFIG_* bits: which dimensions a configuration sets (the type spec flags). */
const diff = {
  mcc: 0x0001,
  mnc: 0x0002,
  locale: 0x0004,
  touchscreen: 0x0008,
  keyboard: 0x0010,
  keyboardHidden: 0x0020,
  navigation: 0x0040,
  orientation: 0x0080,
  density: 0x0100,
  screenSize: 0x0200,
  version: 0x0400,
  screenLayout: 0x0800,
  uiMode: 0x1000,
  smallestScreenSize: 0x2000,
  layoutDirection: 0x4000,
  screenRound: 0x8000,
  colorMode: 0x10000,
  grammaticalGender: 0x20000,
} as const;

/**
 * Proto enums whose values are "set, not set" pairs map to the binary yes/no the other way round
 * (LONG = 1 but SCREENLONG_YES = 2); these tables turn each proto value into its binary bits.
 */
const screenLong = [0, 0x20, 0x10];
const layoutDirection = [0, 0x40, 0x80];
const screenRound = [0, 2, 1];
const wideColorGamut = [0, 2, 1];
const hdr = [0, 0x08, 0x04];
const night = [0, 0x20, 0x10];
const navHidden = [0, 0x04, 0x08];

/** Packs a 2-letter code as is and a 3-letter one into 15 bits, as ResTable_config::packLanguageOrRegion. */
function packCode(code: string, base: number): [number, number] {
  if (code.length === 2) return [code.charCodeAt(0), code.charCodeAt(1)];
  if (code.length !== 3) return [0, 0];
  const first = (code.charCodeAt(0) - base) & 0x7f;
  const second = (code.charCodeAt(1) - base) & 0x7f;
  const third = (code.charCodeAt(2) - base) & 0x7f;
  return [0x80 | (third << 2) | (second >> 3), ((second << 5) | first) & 0xff];
}

interface Locale {
  language: string;
  script: string;
  region: string;
  variant: string;
}

/** A BCP 47 tag ("sr-Latn-RS", "b+es+419") or an aapt qualifier ("pt-rBR") split into its parts. */
export function parseLocale(tag: string): Locale {
  const locale: Locale = { language: "", script: "", region: "", variant: "" };
  const parts = tag.replace(/^b\+/, "").split(/[-+_]/);
  parts.forEach((part, i) => {
    if (i === 0) locale.language = part.toLowerCase();
    else if (/^[A-Za-z]{4}$/.test(part)) locale.script = part[0]?.toUpperCase() + part.slice(1).toLowerCase();
    else if (/^r?[A-Za-z]{2}$/.test(part) && !locale.region) locale.region = part.slice(-2).toUpperCase();
    else if (/^\d{3}$/.test(part) && !locale.region) locale.region = part;
    else if (/^[A-Za-z0-9]{5,8}$/.test(part)) locale.variant = part.toLowerCase();
  });
  return locale;
}

function writeLocale(out: Buffer, tag: string): void {
  const locale = parseLocale(tag);
  const [l0, l1] = packCode(locale.language, 0x61);
  const [r0, r1] = packCode(locale.region, 0x30);
  out.writeUInt8(l0, 8);
  out.writeUInt8(l1, 9);
  out.writeUInt8(r0, 10);
  out.writeUInt8(r1, 11);
  out.write(locale.script.slice(0, 4), 36, "latin1");
  out.write(locale.variant.slice(0, 8), 40, "latin1");
}

export interface BinaryConfig {
  bytes: Buffer;
  /** The CONFIG_* bits of every dimension this configuration sets. */
  dimensions: number;
  /** A stable key: configurations with equal bytes share one type chunk. */
  key: string;
}

/** aapt.pb.Configuration as a binary ResTable_config (what aapt2's proto deserializer builds). */
export function binaryConfig(configuration: Buffer | undefined): BinaryConfig {
  const c: ProtoField[] = configuration ? readFields(configuration) : [];
  const get = (field: number) => uint32(c, field) ?? 0;
  const out = Buffer.alloc(configSize);
  let dimensions = 0;
  const set = (value: number, write: () => void, bit: number) => {
    if (value === 0) return;
    write();
    dimensions |= bit;
  };
  out.writeUInt32LE(configSize, 0);
  set(get(1), () => out.writeUInt16LE(get(1), 4), diff.mcc);
  set(get(2), () => out.writeUInt16LE(get(2), 6), diff.mnc);
  const locale = text(c, 3) ?? "";
  set(locale.length, () => writeLocale(out, locale), diff.locale);
  set(get(15), () => out.writeUInt8(get(15), 12), diff.orientation);
  set(get(19), () => out.writeUInt8(get(19), 13), diff.touchscreen);
  set(get(18), () => out.writeUInt16LE(get(18), 14), diff.density);
  set(get(21), () => out.writeUInt8(get(21), 16), diff.keyboard);
  set(get(23), () => out.writeUInt8(get(23), 17), diff.navigation);
  const inputFlags = (get(20) & 0x03) | (navHidden[get(22)] ?? 0);
  set(inputFlags, () => out.writeUInt8(inputFlags, 18), diff.keyboardHidden);
  set(get(26), () => out.writeUInt8(get(26), 19), diff.grammaticalGender);
  set(
    get(5) | get(6),
    () => {
      out.writeUInt16LE(get(5), 20);
      out.writeUInt16LE(get(6), 22);
    },
    diff.screenSize,
  );
  set(get(24), () => out.writeUInt16LE(get(24), 24), diff.version);
  const layout = (get(10) & 0x0f) | (screenLong[get(11)] ?? 0);
  set(layout, () => out.writeUInt8((out[28] ?? 0) | layout, 28), diff.screenLayout);
  const direction = layoutDirection[get(4)] ?? 0;
  set(direction, () => out.writeUInt8((out[28] ?? 0) | direction, 28), diff.layoutDirection);
  const uiMode = (get(16) & 0x0f) | (night[get(17)] ?? 0);
  set(uiMode, () => out.writeUInt8(uiMode, 29), diff.uiMode);
  set(get(9), () => out.writeUInt16LE(get(9), 30), diff.smallestScreenSize);
  set(
    get(7) | get(8),
    () => {
      out.writeUInt16LE(get(7), 32);
      out.writeUInt16LE(get(8), 34);
    },
    diff.screenSize,
  );
  const round = screenRound[get(12)] ?? 0;
  set(round, () => out.writeUInt8(round, 48), diff.screenRound);
  const colorMode = (wideColorGamut[get(13)] ?? 0) | (hdr[get(14)] ?? 0);
  set(colorMode, () => out.writeUInt8(colorMode, 49), diff.colorMode);
  return { bytes: out, dimensions, key: out.toString("hex") };
}

/**
 * The order aapt2 writes type chunks in: ResTable_config::compare, which compares the unions of
 * the struct as 32-bit words (so mnc outranks mcc, country outranks language, density outranks
 * orientation), then script and variant byte by byte.
 */
export function compareConfigs(a: Buffer, b: Buffer): number {
  const word = (at: number) => a.readUInt32LE(at) - b.readUInt32LE(at);
  const bytes = (start: number, end: number) => a.subarray(start, end).compare(b.subarray(start, end));
  const byte = (at: number) => (a[at] ?? 0) - (b[at] ?? 0);
  return (
    word(4) || // imsi: mcc, mnc
    word(8) || // language and country, as one little-endian word
    bytes(36, 40) || // script
    bytes(40, 48) || // variant
    word(12) || // orientation, touchscreen, density
    word(16) || // keyboard, navigation, input flags, grammatical gender
    word(20) || // screen width and height
    word(24) || // sdk version, minor version
    byte(28) || // screen layout
    byte(48) || // screen layout 2 (round)
    byte(49) || // color mode
    byte(29) || // ui mode
    a.readUInt16LE(30) - b.readUInt16LE(30) || // smallest screen width
    word(32) // screen width and height in dp
  );
}
