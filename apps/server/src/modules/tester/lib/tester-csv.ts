import { z } from "zod";

export interface TesterRow {
  line: number;
  email: string;
  first_name: string;
  last_name: string;
}
export interface CsvLineError {
  line: number;
  message: string;
}
export type TesterCsvResult =
  | { ok: true; rows: TesterRow[]; duplicates: number[] }
  | { ok: false; errors: CsvLineError[] };

/** Same rule as the rest of the API, so an imported address is one a form would accept too. */
const emailSchema = z.email().max(254);
const maxNameLength = 150;

const headerAliases: Record<string, "email" | "first" | "last" | "name"> = {
  email: "email",
  "e-mail": "email",
  mail: "email",
  "email address": "email",
  "e-mail address": "email",
  first_name: "first",
  "first name": "first",
  firstname: "first",
  last_name: "last",
  "last name": "last",
  lastname: "last",
  surname: "last",
  name: "name",
  "full name": "name",
  full_name: "name",
};

interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Reads a tester list: `email[,first,last]` or `email[,full name]`, with or without a header.
 * Every bad line is reported at once so the whole file can be fixed in one go; repeated
 * addresses (case-insensitive) are merged, the first one kept.
 */
export function parseTesterCsv(input: string | Buffer, { maxRows = 5000 } = {}): TesterCsvResult {
  const text = typeof input === "string" ? input.replace(/^\uFEFF/, "") : decode(input);
  const errors: CsvLineError[] = [];
  const records = readRecords(text, errors).filter((r) => r.fields.some((f) => f.trim() !== ""));
  const columns = headerColumns(records[0]);
  if (columns) {
    if (columns.email < 0)
      errors.push({ line: records[0]?.line ?? 1, message: "The header has no email column." });
    records.shift();
  }

  const rows: TesterRow[] = [];
  const duplicates: number[] = [];
  const seen = new Set<string>();
  for (const [index, record] of records.entries()) {
    if (index >= maxRows) {
      errors.push({ line: record.line, message: `Too many rows: at most ${maxRows} testers per file.` });
      break;
    }
    const row = toRow(record, columns);
    if (typeof row === "string") {
      errors.push({ line: record.line, message: row });
      continue;
    }
    const key = row.email.toLowerCase();
    if (seen.has(key)) duplicates.push(record.line);
    else {
      seen.add(key);
      rows.push(row);
    }
  }
  if (errors.length === 0 && rows.length === 0) errors.push({ line: 1, message: "The file has no testers." });
  if (errors.length > 0) return { ok: false, errors: errors.sort((a, b) => a.line - b.line) };
  return { ok: true, rows, duplicates };
}

type Columns = { email: number; first: number; last: number; name: number };

function headerColumns(record: CsvRecord | undefined): Columns | null {
  if (!record || record.fields.some((f) => f.includes("@"))) return null;
  const columns: Columns = { email: -1, first: -1, last: -1, name: -1 };
  let known = false;
  for (const [index, field] of record.fields.entries()) {
    const role = headerAliases[field.trim().toLowerCase().replace(/\s+/g, " ")];
    if (role && columns[role] < 0) {
      columns[role] = index;
      known = true;
    }
  }
  return known ? columns : null;
}

function toRow(record: CsvRecord, columns: Columns | null): TesterRow | string {
  const at = (index: number) => (index >= 0 ? (record.fields[index] ?? "").trim() : "");
  const email = at(columns ? columns.email : 0);
  let first: string;
  let last: string;
  if (columns) {
    // "name" next to a last-name column is the first name; alone it is the full name.
    if (columns.first >= 0 || columns.last >= 0)
      [first, last] = [at(columns.first >= 0 ? columns.first : columns.name), at(columns.last)];
    else [first, last] = splitFullName(at(columns.name));
  } else if (record.fields.length === 2) [first, last] = splitFullName(at(1));
  else [first, last] = [at(1), at(2)];

  if (!email) return "Missing e-mail address.";
  if (!emailSchema.safeParse(email).success) return `Invalid e-mail address: ${email.slice(0, 100)}`;
  if (first.length > maxNameLength || last.length > maxNameLength) {
    return `Names are limited to ${maxNameLength} characters.`;
  }
  return { line: record.line, email, first_name: first, last_name: last };
}

/** "Jean-Claude Van Damme" -> first word, then the rest: particles stay with the surname. */
function splitFullName(name: string): [string, string] {
  const match = /^(\S+)\s+(.+)$/.exec(name);
  return match ? [match[1] ?? "", match[2] ?? ""] : [name, ""];
}

/**
 * RFC 4180 records with the separator (`,` or `;`) taken from the first line, as spreadsheet
 * exports in comma-decimal locales use `;`. A quoted field may span lines; a record's line
 * number is the line it starts on.
 */
function readRecords(text: string, errors: CsvLineError[]): CsvRecord[] {
  // Quoted text is left out of the count: "Smith, John" must not vote for the comma.
  const firstLine = (text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "").replace(/"(?:[^"]|"")*"/g, "");
  const separator = count(firstLine, ";") > count(firstLine, ",") ? ";" : ",";
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let start = 1;
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
    } else if (c === '"' && field.trim() === "" && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
      field = "";
    } else if (c === separator) {
      fields.push(field);
      field = "";
      wasQuoted = false;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      fields.push(field);
      records.push({ line: start, fields });
      [fields, field, wasQuoted] = [[], "", false];
      start = ++line;
    } else if (wasQuoted && c.trim() !== "") {
      // Text after a closing quote: keep it, but the line is malformed CSV.
      errors.push({ line: start, message: "Unexpected text after a closing quote." });
      field += c;
      wasQuoted = false;
    } else field += c;
  }
  if (quoted) errors.push({ line: start, message: "Unterminated quoted field." });
  if (field !== "" || fields.length > 0) records.push({ line: start, fields: [...fields, field] });
  return records;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** UTF-8 (its BOM dropped); a file that is not valid UTF-8 is read as Windows-1252, Excel's usual export. */
function decode(bytes: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}
