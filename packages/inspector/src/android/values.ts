/** A manifest attribute or resource value, reduced to what the inspector needs from both APK and AAB encodings. */
export type ResValue =
  | { type: "string"; text: string }
  | { type: "reference"; id: number }
  | { type: "int"; value: number }
  | { type: "bool"; value: boolean }
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
  dynamicReference: 0x07,
  intDec: 0x10,
  intHex: 0x11,
  intBoolean: 0x12,
} as const;

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
    default:
      return { type: "other" };
  }
}
