import { InspectError } from "../errors.ts";
import { limits } from "../limits.ts";

/** One element of a parsed document. Namespace prefixes stay in the names ("uap:VisualElements"). */
export interface XmlElement {
  name: string;
  /** Null-prototype map, so names such as "__proto__" or "constructor" are plain keys. */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data (text and CDATA between its tags, not its children's), raw. */
  text: string;
}

export interface XmlOptions {
  maxBytes?: number;
  maxDepth?: number;
  maxNodes?: number;
}

/** Manifests and plists are small; anything this large is not a document the inspector needs. */
export const xmlDefaultMaxBytes = 16 * 1024 * 1024;

const predefinedEntities: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const namePattern = /[A-Za-z_:\u00C0-\uFFFF][\w:.\-\u00B7\u00C0-\uFFFF]*/y;
const whitespacePattern = /[ \t\n]*/y;

function corrupt(message: string): never {
  throw new InspectError("corrupt", `malformed XML: ${message}`);
}

/** Honours a UTF-16 byte-order mark (some Windows tools write one); everything else is read as UTF-8. */
function decodeBytes(input: Buffer): string {
  if (input.length >= 2 && input[0] === 0xff && input[1] === 0xfe) {
    return new TextDecoder("utf-16le").decode(input.subarray(2));
  }
  if (input.length >= 2 && input[0] === 0xfe && input[1] === 0xff) {
    return new TextDecoder("utf-16be").decode(input.subarray(2));
  }
  return new TextDecoder("utf-8", { ignoreBOM: false }).decode(input);
}

function decodeReference(ref: string): string {
  const named = predefinedEntities[ref];
  if (named !== undefined) return named;
  let code = Number.NaN;
  if (/^#[0-9]{1,8}$/.test(ref)) code = Number.parseInt(ref.slice(1), 10);
  else if (/^#x[0-9A-Fa-f]{1,6}$/.test(ref)) code = Number.parseInt(ref.slice(2), 16);
  else corrupt(`undefined entity &${ref.slice(0, 20)};`);
  const isSurrogate = code >= 0xd800 && code <= 0xdfff;
  if (code < 1 || code > 0x10ffff || isSurrogate) corrupt(`invalid character reference &${ref};`);
  return String.fromCodePoint(code);
}

/**
 * Decodes the five predefined entities and numeric references. Any other entity is refused:
 * DOCTYPE declarations are never read, so no entity can expand into more text (billion laughs).
 */
export function decodeEntities(raw: string): string {
  let amp = raw.indexOf("&");
  if (amp === -1) return raw;
  const parts: string[] = [];
  let from = 0;
  while (amp !== -1) {
    const semi = raw.indexOf(";", amp);
    if (semi === -1 || semi - amp > 12) corrupt("unterminated entity reference");
    parts.push(raw.slice(from, amp), decodeReference(raw.slice(amp + 1, semi)));
    from = semi + 1;
    amp = raw.indexOf("&", from);
  }
  parts.push(raw.slice(from));
  return parts.join("");
}

interface OpenElement {
  element: XmlElement;
  texts: string[];
}

class XmlParser {
  private pos = 0;
  private nodes = 0;
  private readonly stack: OpenElement[] = [];
  private root: XmlElement | undefined;

  constructor(
    private readonly src: string,
    private readonly maxDepth: number,
    private readonly maxNodes: number,
  ) {}

  parseDocument(): XmlElement {
    const { src } = this;
    while (this.pos < src.length) {
      const lt = src.indexOf("<", this.pos);
      const end = lt === -1 ? src.length : lt;
      if (end > this.pos) this.addText(src.slice(this.pos, end), true);
      this.pos = end;
      if (lt === -1) break;
      if (src.startsWith("<!--", lt)) this.skipPast("-->", lt + 4, "comment");
      else if (src.startsWith("<![CDATA[", lt)) this.readCdata(lt);
      else if (src.startsWith("<?", lt)) this.skipPast("?>", lt + 2, "processing instruction");
      else if (src.startsWith("<!DOCTYPE", lt)) this.skipDoctype(lt);
      else if (src.startsWith("</", lt)) this.readEndTag(lt);
      else if (src.startsWith("<!", lt)) corrupt(`unknown markup at ${lt}`);
      else this.readStartTag(lt);
    }
    if (this.stack.length > 0) corrupt(`unclosed element <${this.stack.at(-1)?.element.name}>`);
    if (!this.root) corrupt("no root element");
    return this.root;
  }

  private countNode(): void {
    this.nodes += 1;
    if (this.nodes > this.maxNodes) {
      throw new InspectError("limit_exceeded", `XML has more than ${this.maxNodes} nodes`);
    }
  }

  private addText(raw: string, decode: boolean): void {
    const top = this.stack.at(-1);
    if (!top) {
      if (decode && /^[ \t\n]*$/.test(raw)) return;
      corrupt("text outside the root element");
    }
    this.countNode();
    top.texts.push(decode ? decodeEntities(raw) : raw);
  }

  private skipPast(terminator: string, from: number, what: string): void {
    const at = this.src.indexOf(terminator, from);
    if (at === -1) corrupt(`unterminated ${what}`);
    this.countNode();
    this.pos = at + terminator.length;
  }

  private readCdata(lt: number): void {
    const start = lt + "<![CDATA[".length;
    const at = this.src.indexOf("]]>", start);
    if (at === -1) corrupt("unterminated CDATA section");
    this.addText(this.src.slice(start, at), false);
    this.pos = at + 3;
  }

  /** Steps over the DOCTYPE and its internal subset without interpreting a single declaration. */
  private skipDoctype(lt: number): void {
    if (this.root || this.stack.length > 0) corrupt("DOCTYPE after the root element");
    const { src } = this;
    let i = lt + "<!DOCTYPE".length;
    let inSubset = false;
    while (i < src.length) {
      const ch = src[i];
      if (ch === '"' || ch === "'") {
        const close = src.indexOf(ch, i + 1);
        if (close === -1) break;
        i = close + 1;
      } else if (inSubset && src.startsWith("<!--", i)) {
        const close = src.indexOf("-->", i + 4);
        if (close === -1) break;
        i = close + 3;
      } else if (ch === "[" && !inSubset) {
        inSubset = true;
        i += 1;
      } else if (ch === "]" && inSubset) {
        inSubset = false;
        i += 1;
      } else if (ch === ">" && !inSubset) {
        this.countNode();
        this.pos = i + 1;
        return;
      } else {
        i += 1;
      }
    }
    corrupt("unterminated DOCTYPE");
  }

  private readName(): string {
    namePattern.lastIndex = this.pos;
    const match = namePattern.exec(this.src);
    if (!match) corrupt(`expected a name at ${this.pos}`);
    this.pos = namePattern.lastIndex;
    return match[0];
  }

  private skipWhitespace(): boolean {
    whitespacePattern.lastIndex = this.pos;
    whitespacePattern.exec(this.src);
    const moved = whitespacePattern.lastIndex > this.pos;
    this.pos = whitespacePattern.lastIndex;
    return moved;
  }

  private readAttributeValue(): string {
    const quote = this.src[this.pos];
    if (quote !== '"' && quote !== "'") corrupt(`expected a quoted attribute value at ${this.pos}`);
    const close = this.src.indexOf(quote, this.pos + 1);
    if (close === -1) corrupt("unterminated attribute value");
    const raw = this.src.slice(this.pos + 1, close);
    if (raw.includes("<")) corrupt("'<' in an attribute value");
    this.pos = close + 1;
    // Attribute-value normalization of the XML spec: literal tabs and newlines read as spaces.
    return decodeEntities(raw.replace(/[\t\n]/g, " "));
  }

  private readStartTag(lt: number): void {
    if (!this.stack.length && this.root) corrupt("more than one root element");
    if (this.stack.length >= this.maxDepth) {
      throw new InspectError("limit_exceeded", `XML nested deeper than ${this.maxDepth} levels`);
    }
    this.countNode();
    this.pos = lt + 1;
    const element: XmlElement = {
      name: this.readName(),
      attributes: Object.create(null),
      children: [],
      text: "",
    };
    for (;;) {
      const spaced = this.skipWhitespace();
      if (this.src.startsWith("/>", this.pos)) {
        this.pos += 2;
        this.attach(element);
        return;
      }
      if (this.src[this.pos] === ">") {
        this.pos += 1;
        this.attach(element);
        this.stack.push({ element, texts: [] });
        return;
      }
      if (!spaced) corrupt(`expected whitespace, '>' or '/>' in <${element.name}>`);
      const name = this.readName();
      this.skipWhitespace();
      if (this.src[this.pos] !== "=") corrupt(`expected '=' after attribute ${name}`);
      this.pos += 1;
      this.skipWhitespace();
      if (Object.hasOwn(element.attributes, name)) corrupt(`duplicate attribute ${name}`);
      // Attributes count as nodes too, so one element with millions of them is bounded as well.
      this.countNode();
      element.attributes[name] = this.readAttributeValue();
    }
  }

  private attach(element: XmlElement): void {
    const parent = this.stack.at(-1);
    if (parent) parent.element.children.push(element);
    else this.root = element;
  }

  private readEndTag(lt: number): void {
    this.pos = lt + 2;
    const name = this.readName();
    this.skipWhitespace();
    if (this.src[this.pos] !== ">") corrupt(`expected '>' after </${name}`);
    this.pos += 1;
    const open = this.stack.pop();
    if (!open) corrupt(`unexpected </${name}>`);
    if (open.element.name !== name) corrupt(`</${name}> closes <${open.element.name}>`);
    open.element.text = open.texts.join("");
  }
}

/**
 * Parses a text XML document into its root element. Bounded by size, depth and node count;
 * malformed input throws InspectError("corrupt"), a passed bound InspectError("limit_exceeded").
 */
export function parseXml(input: Buffer | string, options: XmlOptions = {}): XmlElement {
  const maxBytes = options.maxBytes ?? xmlDefaultMaxBytes;
  if (input.length > maxBytes) {
    throw new InspectError("limit_exceeded", `XML document larger than ${maxBytes} bytes`);
  }
  const text = typeof input === "string" ? input.replace(/^\uFEFF/, "") : decodeBytes(input);
  const normalized = text.replace(/\r\n?/g, "\n");
  const parser = new XmlParser(
    normalized,
    options.maxDepth ?? limits.xmlMaxDepth,
    options.maxNodes ?? limits.xmlMaxNodes,
  );
  return parser.parseDocument();
}
