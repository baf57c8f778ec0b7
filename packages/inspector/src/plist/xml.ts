import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";
import { parseXml, type XmlElement } from "../xml/index.ts";
import { type PlistDict, type PlistValue, setKey } from "./types.ts";

/** XML property lists (Apple's plist DTD) on top of the bounded XML parser. */

function corrupt(message: string): never {
  throw new InspectError("corrupt", `XML plist: ${message}`);
}

function readInteger(text: string): number | bigint {
  const trimmed = text.trim();
  // Length-bounded so a giant digit string cannot make BigInt parsing slow.
  if (!/^[+-]?(\d{1,40}|0x[0-9a-fA-F]{1,32})$/.test(trimmed))
    corrupt(`bad integer "${trimmed.slice(0, 40)}"`);
  const negative = trimmed.startsWith("-");
  const digits = trimmed.replace(/^[+-]/, "");
  const magnitude = BigInt(digits);
  const value = negative ? -magnitude : magnitude;
  const asNumber = Number(value);
  return Number.isSafeInteger(asNumber) ? asNumber : value;
}

function readReal(text: string): number {
  const trimmed = text.trim();
  if (/^[+-]?inf(inity)?$/i.test(trimmed)) return trimmed.startsWith("-") ? -Infinity : Infinity;
  if (/^nan$/i.test(trimmed)) return Number.NaN;
  const value = Number(trimmed);
  if (trimmed === "" || Number.isNaN(value)) corrupt(`bad real "${trimmed.slice(0, 40)}"`);
  return value;
}

function readDate(text: string): string {
  const date = new Date(text.trim());
  if (Number.isNaN(date.getTime())) corrupt(`bad date "${text.trim().slice(0, 40)}"`);
  return date.toISOString();
}

function readValue(element: XmlElement): PlistValue {
  switch (element.name) {
    case "dict":
      return readDict(element);
    case "array":
      return element.children.map(readValue);
    case "string":
      return element.text;
    case "integer":
      return readInteger(element.text);
    case "real":
      return readReal(element.text);
    case "true":
      return true;
    case "false":
      return false;
    case "date":
      return readDate(element.text);
    case "data":
      return Buffer.from(element.text.replace(/\s+/g, ""), "base64");
    default:
      return corrupt(`unknown element <${element.name.slice(0, 40)}>`);
  }
}

function readDict(element: XmlElement): PlistDict {
  const dict: PlistDict = {};
  const children = element.children;
  if (children.length % 2 !== 0) corrupt("dictionary with a key but no value");
  for (let i = 0; i < children.length; i += 2) {
    const key = children[i] as XmlElement;
    if (key.name !== "key") corrupt("dictionary entry without <key>");
    setKey(dict, key.text, readValue(children[i + 1] as XmlElement));
  }
  return dict;
}

export function parseXmlPlist(input: Buffer): PlistValue {
  // Values nest one XML element per plist level, plus the <plist> wrapper.
  const root = parseXml(input, { maxDepth: limits.plistMaxDepth + 1, maxNodes: limits.plistMaxObjects });
  if (root.name !== "plist") corrupt(`root element is <${root.name.slice(0, 40)}>`);
  const [value] = root.children;
  if (!value || root.children.length !== 1) corrupt("<plist> must hold exactly one value");
  return readValue(value);
}
