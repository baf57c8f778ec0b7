import { isDict, type PlistValue } from "../../plist/types.ts";
import { der, derNode } from "./der-writer.ts";

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function writeValue(value: PlistValue, indent: string): string {
  if (value === null) return `${indent}<string></string>\n`;
  if (typeof value === "string") return `${indent}<string>${escapeXml(value)}</string>\n`;
  if (typeof value === "boolean") return `${indent}<${value}/>\n`;
  if (typeof value === "bigint") return `${indent}<integer>${value}</integer>\n`;
  if (typeof value === "number") {
    return Number.isInteger(value)
      ? `${indent}<integer>${value}</integer>\n`
      : `${indent}<real>${value}</real>\n`;
  }
  if (Buffer.isBuffer(value)) return `${indent}<data>${value.toString("base64")}</data>\n`;
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}<array/>\n`;
    return `${indent}<array>\n${value.map((item) => writeValue(item, `${indent}\t`)).join("")}${indent}</array>\n`;
  }
  const keys = Object.keys(value).sort();
  if (keys.length === 0) return `${indent}<dict/>\n`;
  const body = keys
    .map(
      (key) =>
        `${indent}\t<key>${escapeXml(key)}</key>\n${writeValue(value[key] as PlistValue, `${indent}\t`)}`,
    )
    .join("");
  return `${indent}<dict>\n${body}${indent}</dict>\n`;
}

/** An XML property list in the layout Apple's tools write (tabs, sorted keys). */
export function writeXmlPlist(value: PlistValue): Buffer {
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n' +
      `<plist version="1.0">\n${writeValue(value, "")}</plist>\n`,
    "utf8",
  );
}

function derValue(value: PlistValue): Buffer {
  if (typeof value === "boolean") return der.boolean(value);
  if (typeof value === "number" || typeof value === "bigint") {
    if (typeof value === "number" && !Number.isInteger(value)) {
      throw new Error("entitlements cannot hold real numbers in their DER form");
    }
    return der.integer(value);
  }
  if (typeof value === "string") return der.utf8String(value);
  if (Array.isArray(value)) return der.sequence(...value.map(derValue));
  if (isDict(value)) return derDict(value);
  throw new Error("entitlements hold only booleans, integers, strings, arrays and dictionaries");
}

// Keys in byte order: the kernel's entitlement queries search the dictionary by key.
function derDict(dict: { [key: string]: PlistValue }): Buffer {
  const keys = Object.keys(dict).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const entries = keys.map((key) => der.sequence(der.utf8String(key), derValue(dict[key] as PlistValue)));
  return derNode(0xb0, Buffer.concat(entries));
}

/** Entitlements in Apple's DER form: [APPLICATION 16] { version 1, [CONTEXT 16] dictionary }. */
export function entitlementsToDer(entitlements: { [key: string]: PlistValue }): Buffer {
  return derNode(0x70, Buffer.concat([der.integer(1), derDict(entitlements)]));
}
