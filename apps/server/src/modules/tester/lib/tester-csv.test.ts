import { describe, expect, it } from "vitest";
import { parseTesterCsv } from "./tester-csv.ts";

function rows(input: string | Buffer) {
  const result = parseTesterCsv(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.rows.map(({ line, email, first_name, last_name }) => [line, email, first_name, last_name]);
}

describe("parseTesterCsv", () => {
  it("reads email, first and last name columns without a header", () => {
    expect(rows("ann@example.com,Ann,Lee\nbob@example.com,Bob,\ncid@example.com\n")).toEqual([
      [1, "ann@example.com", "Ann", "Lee"],
      [2, "bob@example.com", "Bob", ""],
      [3, "cid@example.com", "", ""],
    ]);
  });

  it("splits a full-name second column at the first space", () => {
    expect(
      rows('ann@example.com,Ann Lee\njc@example.com,"Jean-Claude Van Damme"\nmono@example.com,Mono'),
    ).toEqual([
      [1, "ann@example.com", "Ann", "Lee"],
      [2, "jc@example.com", "Jean-Claude", "Van Damme"],
      [3, "mono@example.com", "Mono", ""],
    ]);
  });

  it("maps header columns in any order and ignores unknown ones", () => {
    expect(rows("Last Name,Team,E-mail,First Name\nLee,QA,ann@example.com,Ann\n")).toEqual([
      [2, "ann@example.com", "Ann", "Lee"],
    ]);
    expect(rows("mail;name\nann@example.com;Ann Lee")).toEqual([[2, "ann@example.com", "Ann", "Lee"]]);
    expect(rows("email,name,last_name\nann@example.com,Ann,Lee")).toEqual([
      [2, "ann@example.com", "Ann", "Lee"],
    ]);
    expect(rows("EMAIL\nann@example.com")).toEqual([[2, "ann@example.com", "", ""]]);
  });

  it("reports a header without an email column", () => {
    expect(parseTesterCsv("first_name,last_name\nAnn,Lee")).toEqual({
      ok: false,
      errors: [
        { line: 1, message: "The header has no email column." },
        { line: 2, message: "Missing e-mail address." },
      ],
    });
  });

  it("strips a UTF-8 BOM from text and from bytes, and reads Windows-1252 bytes", () => {
    expect(rows("\uFEFFemail,first_name\nann@example.com,Zoë")).toEqual([[2, "ann@example.com", "Zoë", ""]]);
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from("email,first_name\nann@example.com,Zoë"),
    ]);
    expect(rows(bytes)).toEqual([[2, "ann@example.com", "Zoë", ""]]);
    expect(rows(Buffer.from("ann@example.com,Zo\xeb", "latin1"))).toEqual([
      [1, "ann@example.com", "Zoë", ""],
    ]);
  });

  it("detects a semicolon separator from the first line, ignoring quoted text", () => {
    expect(rows('ann@example.com;"Lee, Ann";x\nbob@example.com;Bob;Ray')).toEqual([
      [1, "ann@example.com", "Lee, Ann", "x"],
      [2, "bob@example.com", "Bob", "Ray"],
    ]);
    expect(rows("ann@example.com,Ann;Marie,Lee")).toEqual([[1, "ann@example.com", "Ann;Marie", "Lee"]]);
  });

  it("handles quoted fields with escaped quotes, separators and line breaks", () => {
    expect(
      rows(
        '"ann@example.com","Ann ""The Tester""","Lee, Jr."\n"bob@example.com","Multi\nLine",Ray\ncid@example.com',
      ),
    ).toEqual([
      [1, "ann@example.com", 'Ann "The Tester"', "Lee, Jr."],
      [2, "bob@example.com", "Multi\nLine", "Ray"],
      [4, "cid@example.com", "", ""],
    ]);
  });

  it("handles CRLF, lone CR and blank lines, keeping physical line numbers", () => {
    expect(rows("email\r\n\r\nann@example.com\r\n  \r\n,,\r\nbob@example.com\rcid@example.com\r\n")).toEqual([
      [3, "ann@example.com", "", ""],
      [6, "bob@example.com", "", ""],
      [7, "cid@example.com", "", ""],
    ]);
  });

  it("trims fields", () => {
    expect(rows("  ann@example.com ,  Ann , Lee ")).toEqual([[1, "ann@example.com", "Ann", "Lee"]]);
  });

  it("lists every bad line by number", () => {
    const result = parseTesterCsv(
      "email,first_name\nann@example.com,Ann\nnot-an-email,X\n,Nobody\nbob@example,Bob\nok@example.com\nx y@example.com",
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        { line: 3, message: "Invalid e-mail address: not-an-email" },
        { line: 4, message: "Missing e-mail address." },
        { line: 5, message: "Invalid e-mail address: bob@example" },
        { line: 7, message: "Invalid e-mail address: x y@example.com" },
      ],
    });
  });

  it("reports malformed quoting and over-long names", () => {
    const result = parseTesterCsv(
      `ann@example.com,"Ann"x\nbob@example.com,${"b".repeat(151)}\ncid@example.com,"open`,
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        { line: 1, message: "Unexpected text after a closing quote." },
        { line: 2, message: "Names are limited to 150 characters." },
        { line: 3, message: "Unterminated quoted field." },
      ],
    });
  });

  it("merges case-insensitive duplicates, keeping the first", () => {
    expect(
      parseTesterCsv("ann@example.com,Ann\nbob@example.com\nANN@Example.com,Other\nbob@example.com"),
    ).toEqual({
      ok: true,
      rows: [
        { line: 1, email: "ann@example.com", first_name: "Ann", last_name: "" },
        { line: 2, email: "bob@example.com", first_name: "", last_name: "" },
      ],
      duplicates: [3, 4],
    });
  });

  it("refuses more rows than allowed, not counting the header or blank lines", () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `t${i}@example.com`).join("\n\n");
    expect(parseTesterCsv(`email\n${list(3)}`, { maxRows: 3 }).ok).toBe(true);
    expect(parseTesterCsv(`email\n${list(4)}`, { maxRows: 3 })).toEqual({
      ok: false,
      errors: [{ line: 8, message: "Too many rows: at most 3 testers per file." }],
    });
    expect(parseTesterCsv(list(5001)).ok).toBe(false);
  });

  it("refuses an empty file", () => {
    expect(parseTesterCsv("")).toEqual({
      ok: false,
      errors: [{ line: 1, message: "The file has no testers." }],
    });
    expect(parseTesterCsv("email\n\n")).toEqual({
      ok: false,
      errors: [{ line: 1, message: "The file has no testers." }],
    });
  });
});
