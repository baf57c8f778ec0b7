import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The values the bench writes into property lists; numbers are written as integers when whole. */
export type XmlPlistValue =
  | string
  | number
  | boolean
  | Buffer
  | XmlPlistValue[]
  | { [key: string]: XmlPlistValue };

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function writeValue(value: XmlPlistValue, indent: string, lines: string[]): void {
  if (typeof value === "string") lines.push(`${indent}<string>${escapeXml(value)}</string>`);
  else if (typeof value === "boolean") lines.push(`${indent}<${value}/>`);
  else if (typeof value === "number")
    lines.push(
      Number.isInteger(value) ? `${indent}<integer>${value}</integer>` : `${indent}<real>${value}</real>`,
    );
  else if (Buffer.isBuffer(value)) {
    // Apple's writer puts base64 on its own line, indented like the tag.
    lines.push(`${indent}<data>`, `${indent}${value.toString("base64")}`, `${indent}</data>`);
  } else if (Array.isArray(value)) {
    lines.push(`${indent}<array>`);
    for (const item of value) writeValue(item, `${indent}\t`, lines);
    lines.push(`${indent}</array>`);
  } else {
    lines.push(`${indent}<dict>`);
    for (const [key, inner] of Object.entries(value)) {
      lines.push(`${indent}\t<key>${escapeXml(key)}</key>`);
      writeValue(inner, `${indent}\t`, lines);
    }
    lines.push(`${indent}</dict>`);
  }
}

/** An XML property list laid out as Xcode and codesign write them (tabs, one element a line). */
export function toXmlPlist(value: XmlPlistValue): string {
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">`,
    `<plist version="1.0">`,
  ];
  writeValue(value, "", lines);
  lines.push("</plist>", "");
  return lines.join("\n");
}

/** A binary property list (Xcode compiles every Info.plist to one), converted by libplist's plistutil. */
export function writeBinaryPlist(path: string, value: XmlPlistValue): void {
  mkdirSync(dirname(path), { recursive: true });
  execFileSync("plistutil", ["-f", "bin", "-i", "-", "-o", path], {
    input: toXmlPlist(value),
    stdio: ["pipe", "ignore", "inherit"],
  });
}

export function writeXmlPlist(path: string, value: XmlPlistValue): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, toXmlPlist(value));
}
