import { describe, expect, it } from "vitest";
import { InspectError } from "../../src/errors.ts";
import {
  attributeOf,
  childText,
  findChild,
  findChildren,
  findPath,
  localName,
  parseXml,
} from "../../src/xml/index.ts";

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof InspectError) return error.reason;
    throw error;
  }
  return "no error";
}

describe("parseXml", () => {
  it("reads elements, attributes, text and namespace prefixes", () => {
    const root = parseXml(
      Buffer.from(
        '<?xml version="1.0" encoding="utf-8"?>\n<!-- head -->\n' +
          '<Package xmlns="urn:a" xmlns:uap="urn:b"><Identity Name="Contoso.App" Version=\'1.2.3.0\'/>' +
          "<Properties><DisplayName> Contoso </DisplayName><uap:Logo>Assets\\Logo.png</uap:Logo></Properties>" +
          "</Package>\n<?trailing pi?>\n",
      ),
    );
    expect(root.name).toBe("Package");
    expect(root.attributes["xmlns:uap"]).toBe("urn:b");
    expect(findChild(root, "Identity")?.attributes).toEqual({ Name: "Contoso.App", Version: "1.2.3.0" });
    expect(childText(findChild(root, "Properties") ?? root, "DisplayName")).toBe("Contoso");
    expect(findPath(root, "Properties", "Logo")?.name).toBe("uap:Logo");
    expect(findPath(root, "Properties", "Logo")?.text).toBe("Assets\\Logo.png");
    expect(findPath(root, "Nope", "Logo")).toBeUndefined();
  });

  it("decodes the predefined entities, numeric references and CDATA", () => {
    const root = parseXml(
      '<a t="&lt;&gt;&amp;&quot;&apos;&#65;&#x1F600;">x &amp; y<![CDATA[<raw &amp;>]]>z</a>',
    );
    expect(root.attributes.t).toBe("<>&\"'A\u{1F600}");
    expect(root.text).toBe("x & y<raw &amp;>z");
  });

  it("keeps text raw but normalizes line ends and attribute whitespace", () => {
    const root = parseXml('<a b="1\t2\r\n3">\r\n line\r\n</a>');
    expect(root.attributes.b).toBe("1 2 3");
    expect(root.text).toBe("\n line\n");
  });

  it("joins text split by comments and children into the parent's own text", () => {
    const root = parseXml("<a>one<!--c-->two<b>inner</b>three</a>");
    expect(root.text).toBe("onetwothree");
    expect(findChildren(root, "b").map((b) => b.text)).toEqual(["inner"]);
  });

  it("skips a DOCTYPE with an internal subset without expanding its entities", () => {
    const xml =
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd" ' +
      '[ <!ENTITY x "]>"> <!-- ] > --> ]>\n<plist version="1.0"><string>v</string></plist>';
    const root = parseXml(xml);
    expect(root.name).toBe("plist");
    expect(childText(root, "string")).toBe("v");
  });

  it("reads UTF-8 with a BOM and UTF-16 LE and BE", () => {
    const doc = "<r>\u00e9t\u00e9</r>";
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(doc)]);
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(doc, "utf16le")]);
    const be = Buffer.from(le);
    be.swap16();
    expect(parseXml(utf8).text).toBe("\u00e9t\u00e9");
    expect(parseXml(le).text).toBe("\u00e9t\u00e9");
    expect(parseXml(be).text).toBe("\u00e9t\u00e9");
  });

  it("treats attribute names like __proto__ as plain keys", () => {
    const root = parseXml('<a __proto__="p" constructor="c"/>');
    expect(Object.getOwnPropertyDescriptor(root.attributes, "__proto__")?.value).toBe("p");
    expect(Object.keys(root.attributes)).toEqual(["__proto__", "constructor"]);
    expect(attributeOf(root, "constructor")).toBe("c");
    expect(attributeOf(root, "missing")).toBeNull();
  });
});

describe("parseXml on hostile or malformed input", () => {
  it("refuses the billion-laughs entity without expanding it", () => {
    const lol = [
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`),
      "]><lolz>&lol9;</lolz>",
    ].join("");
    const started = Date.now();
    expect(reasonOf(() => parseXml(lol))).toBe("corrupt");
    expect(Date.now() - started).toBeLessThan(200);
  });

  it("refuses external entities", () => {
    const xxe = '<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>';
    expect(() => parseXml(xxe)).toThrow("undefined entity &e;");
  });

  it("bounds depth, node count and size", () => {
    const deep = `${"<a>".repeat(65)}${"</a>".repeat(65)}`;
    expect(reasonOf(() => parseXml(deep))).toBe("limit_exceeded");
    expect(reasonOf(() => parseXml(`${"<a>".repeat(64)}${"</a>".repeat(64)}`))).toBe("no error");
    expect(reasonOf(() => parseXml(`<r>${"<b/>".repeat(50)}</r>`, { maxNodes: 50 }))).toBe("limit_exceeded");
    expect(reasonOf(() => parseXml(`<r>${"x".repeat(100)}</r>`, { maxBytes: 64 }))).toBe("limit_exceeded");
    const attributes = Array.from({ length: 60 }, (_, i) => `a${i}="${i}"`).join(" ");
    expect(reasonOf(() => parseXml(`<r ${attributes}/>`, { maxNodes: 50 }))).toBe("limit_exceeded");
    const unclosedDeep = "<a>".repeat(1_000_000);
    expect(reasonOf(() => parseXml(unclosedDeep))).toBe("limit_exceeded");
  });

  it.each([
    ["empty", ""],
    ["only a declaration", '<?xml version="1.0"?>'],
    ["unclosed root", "<a><b></b>"],
    ["mismatched end tag", "<a><b></a></b>"],
    ["stray end tag", "</a>"],
    ["two roots", "<a/><b/>"],
    ["text outside root", "<a/>tail"],
    ["text before root", "head<a/>"],
    ["unterminated comment", "<a><!-- x</a>"],
    ["unterminated CDATA", "<a><![CDATA[x</a>"],
    ["unterminated PI", "<a><?pi </a>"],
    ["unterminated DOCTYPE", '<!DOCTYPE a [ <!ENTITY x "y"> <a/>'],
    ["DOCTYPE inside root", "<a><!DOCTYPE a></a>"],
    ["unknown markup", "<a><!ELEMENT a ANY></a>"],
    ["unquoted attribute", "<a b=1/>"],
    ["missing '='", '<a b "1"/>'],
    ["attributes not separated", '<a b="1"c="2"/>'],
    ["duplicate attribute", '<a b="1" b="2"/>'],
    ["'<' in attribute", '<a b="<"/>'],
    ["unterminated attribute", '<a b="1/>'],
    ["bad name", "<1a/>"],
    ["unterminated entity", "<a>&amp</a>"],
    ["unknown entity", "<a>&nbsp;</a>"],
    ["NUL reference", "<a>&#0;</a>"],
    ["surrogate reference", "<a>&#xD800;</a>"],
    ["reference above Unicode", "<a>&#x110000;</a>"],
    ["truncated tag", "<a"],
    ["end tag without '>'", "<a></a"],
  ])("refuses %s as corrupt", (_label, xml) => {
    expect(reasonOf(() => parseXml(xml))).toBe("corrupt");
  });

  it("stays linear on long runs of markup-like text", () => {
    const started = Date.now();
    expect(reasonOf(() => parseXml(`<a>${"&amp;".repeat(200_000)}${"<!---->".repeat(100_000)}</a>`))).toBe(
      "no error",
    );
    expect(reasonOf(() => parseXml(`<!DOCTYPE a [${"'".repeat(200_001)}`))).toBe("corrupt");
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe("localName", () => {
  it("drops the namespace prefix", () => {
    expect(localName("uap:VisualElements")).toBe("VisualElements");
    expect(localName("Identity")).toBe("Identity");
  });
});
