import { InspectError } from "../../errors.ts";
import { limits } from "../../limits.ts";
import { message, messages, readFields, text } from "../protobuf.ts";
import { type BinaryValue, itemValue, uint32 } from "./res-value.ts";

export const androidNamespace = "http://schemas.android.com/apk/res/android";
export const distNamespace = "http://schemas.android.com/apk/distribution";
export const toolsNamespace = "http://schemas.android.com/tools";

export interface XmlNamespace {
  prefix: string;
  uri: string;
  line: number;
}

export interface XmlAttribute {
  namespace: string;
  name: string;
  /** The android attribute's resource id, 0 when the attribute has none. */
  resourceId: number;
  /** The text as written in the source. */
  raw: string;
  /** The compiled value; null keeps the raw text as a string. */
  value: BinaryValue | null;
}

export interface XmlElement {
  kind: "element";
  namespaces: XmlNamespace[];
  namespace: string;
  name: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
  line: number;
}

export interface XmlText {
  kind: "text";
  text: string;
  line: number;
}

export type XmlNode = XmlElement | XmlText;

function lineOf(position: Buffer | undefined): number {
  return position ? (uint32(readFields(position), 1) ?? 0) : 0;
}

/** aapt.pb.XmlNode (a bundle's AndroidManifest.xml or res/**.xml) as a tree that keeps everything binary XML needs. */
export function readProtoXml(data: Buffer): XmlElement {
  let nodes = 0;
  const readElement = (element: Buffer, line: number, depth: number): XmlElement => {
    if (++nodes > limits.xmlMaxNodes) throw new InspectError("limit_exceeded", "XML has too many nodes");
    if (depth > limits.xmlMaxDepth) throw new InspectError("limit_exceeded", "XML nests too deep");
    const fields = readFields(element);
    const children: XmlNode[] = [];
    for (const child of messages(fields, 5)) {
      const c = readFields(child);
      const childLine = lineOf(message(c, 3));
      const inner = message(c, 1);
      if (inner) children.push(readElement(inner, childLine, depth + 1));
      else {
        const body = text(c, 2);
        if (body !== undefined) children.push({ kind: "text", text: body, line: childLine });
      }
    }
    return {
      kind: "element",
      namespaces: messages(fields, 1).map((declaration) => {
        const d = readFields(declaration);
        return { prefix: text(d, 1) ?? "", uri: text(d, 2) ?? "", line: lineOf(message(d, 3)) };
      }),
      namespace: text(fields, 2) ?? "",
      name: text(fields, 3) ?? "",
      attributes: messages(fields, 4).map((attribute) => {
        const a = readFields(attribute);
        const compiled = message(a, 6);
        return {
          namespace: text(a, 1) ?? "",
          name: text(a, 2) ?? "",
          resourceId: uint32(a, 5) ?? 0,
          raw: text(a, 3) ?? "",
          value: compiled ? itemValue(compiled) : null,
        };
      }),
      children,
      line,
    };
  };
  const root = readFields(data);
  const element = message(root, 1);
  if (!element) throw new InspectError("corrupt", "protobuf XML has no root element");
  return readElement(element, lineOf(message(root, 3)), 0);
}

export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter(
    (child): child is XmlElement => child.kind === "element" && (name === undefined || child.name === name),
  );
}

export function findAttribute(
  element: XmlElement,
  namespace: string,
  name: string,
): XmlAttribute | undefined {
  return element.attributes.find((a) => a.namespace === namespace && a.name === name);
}
