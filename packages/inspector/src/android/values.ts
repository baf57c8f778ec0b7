/** A manifest attribute or resource value, reduced to what the inspector needs from both APK and AAB encodings. */
export type ResValue =
  | { type: "string"; text: string }
  | { type: "reference"; id: number }
  | { type: "int"; value: number }
  | { type: "bool"; value: boolean }
  /** A color literal, always as 0xAARRGGBB (the #RGB forms are expanded by the compiler). */
  | { type: "color"; argb: number }
  | { type: "float"; value: number }
  /** A dimension: `unit` 0 px, 1 dp, 2 sp, 3 pt, 4 in, 5 mm. */
  | { type: "dimension"; value: number; unit: number }
  /** A fraction, 1 for 100 %. */
  | { type: "fraction"; value: number }
  | { type: "other" };

export interface ManifestAttribute {
  /** Local name as stored; may be empty or obfuscated, so android: attributes are matched by resourceId first. */
  name: string;
  namespace: string;
  resourceId: number;
  value: ResValue;
}

export interface ManifestElement {
  name: string;
  attributes: ManifestAttribute[];
  children: ManifestElement[];
}

/** One configuration's value of a resource: locale "" is the default, density 0 the density-less one. */
export interface ConfigValue {
  locale: string;
  density: number;
  value: ResValue;
}

export interface ResourceTable {
  lookup(id: number): ConfigValue[];
}

export const androidNamespace = "http://schemas.android.com/apk/res/android";

/** android.R.attr ids: attribute names can be stripped by obfuscators, the ids cannot. */
export const attrIds = {
  label: 0x01010001,
  icon: 0x01010002,
  name: 0x01010003,
  debuggable: 0x0101000f,
  minSdkVersion: 0x0101020c,
  versionCode: 0x0101021b,
  versionName: 0x0101021c,
  targetSdkVersion: 0x01010270,
  required: 0x0101028e,
  compileSdkVersion: 0x01010572,
} as const;

export const densityAny = 0xfffe;
export const densityNone = 0xffff;

/** Res_value data types (ResourceTypes.h). */
export const dataTypes = {
  null: 0x00,
  reference: 0x01,
  string: 0x03,
  float: 0x04,
  dimension: 0x05,
  fraction: 0x06,
  dynamicReference: 0x07,
  intDec: 0x10,
  intHex: 0x11,
  intBoolean: 0x12,
  /** ARGB8, RGB8, ARGB4 and RGB4 colors: the data is 0xAARRGGBB for all four. */
  colorFirst: 0x1c,
  colorLast: 0x1f,
} as const;

const floatView = new DataView(new ArrayBuffer(4));

/** The IEEE-754 single a Res_value or protobuf fixed32 carries. */
export function floatFromBits(bits: number): number {
  floatView.setUint32(0, bits >>> 0);
  return floatView.getFloat32(0);
}

/** TypedValue.complexToFloat: a 24-bit mantissa scaled by one of four radixes. */
export function complexToFloat(complex: number): number {
  const radixScale = [1 / 256, 1 / 256 / (1 << 7), 1 / 256 / (1 << 15), 1 / 256 / (1 << 23)];
  return (complex & 0xffffff00) * (radixScale[(complex >> 4) & 3] ?? 0);
}

/** Maps a binary Res_value to a ResValue; `stringAt` resolves TYPE_STRING indices in the owning pool. */
export function toResValue(dataType: number, data: number, stringAt: (index: number) => string): ResValue {
  switch (dataType) {
    case dataTypes.reference:
    case dataTypes.dynamicReference:
      return data === 0 ? { type: "other" } : { type: "reference", id: data >>> 0 };
    case dataTypes.string:
      return { type: "string", text: stringAt(data >>> 0) };
    case dataTypes.intDec:
    case dataTypes.intHex:
      return { type: "int", value: data | 0 };
    case dataTypes.intBoolean:
      return { type: "bool", value: data !== 0 };
    case dataTypes.float:
      return { type: "float", value: floatFromBits(data) };
    case dataTypes.dimension:
      return { type: "dimension", value: complexToFloat(data), unit: data & 0xf };
    case dataTypes.fraction:
      return { type: "fraction", value: complexToFloat(data) };
    default:
      if (dataType >= dataTypes.colorFirst && dataType <= dataTypes.colorLast)
        return { type: "color", argb: data >>> 0 };
      return { type: "other" };
  }
}
