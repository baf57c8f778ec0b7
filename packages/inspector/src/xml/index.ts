export { decodeEntities, parseXml, type XmlElement, type XmlOptions, xmlDefaultMaxBytes } from "./parse.ts";
export { attributeOf, childText, findChild, findChildren, findPath, localName } from "./tree.ts";
