/**
 * During a rolling deploy the previous release still runs against the database the new release
 * has migrated, so a migration may only add (expand). A statement the previous release could trip
 * on (a dropped or renamed table or column, a changed type, a new NOT NULL it does not fill) is a
 * contraction: it belongs in a later release than the one that stopped using the old shape, and
 * its migration says so in a line `-- contract: <why the running release no longer needs it>`.
 */
const contractions: { pattern: RegExp; what: string }[] = [
  { pattern: /\bdrop\s+table\b/i, what: "drops a table" },
  { pattern: /\bdrop\s+column\b/i, what: "drops a column" },
  {
    pattern: /\balter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?[\w".]+\s+rename\b/i,
    what: "renames a table or column",
  },
  { pattern: /\balter\s+column\s+[\w"]+\s+(?:set\s+data\s+)?type\b/i, what: "changes a column's type" },
  { pattern: /\balter\s+column\s+[\w"]+\s+set\s+not\s+null\b/i, what: "makes a column NOT NULL" },
  {
    // A new NOT NULL column without a default: the previous release's inserts leave it out.
    pattern:
      /\badd\s+column\s+(?:if\s+not\s+exists\s+)?[\w"]+\s+(?:(?!\bdefault\b|;|,\s*add\b)[^;])*\bnot\s+null\b(?:(?!\bdefault\b)[^;])*;?$/im,
    what: "adds a NOT NULL column without a default",
  },
];

/** Strips comments, so a word in a comment is not read as a statement. */
function statementsOf(sql: string): string {
  return sql.replace(/--[^\n]*/g, "").replace(/\/\*[\s\S]*?\*\//g, "");
}

/** What in `sql` the previous release could trip on, unless the migration is marked a contraction. */
export function backwardIncompatibilities(sql: string): string[] {
  if (/^\s*--\s*contract:\s*\S/im.test(sql)) return [];
  const statements = statementsOf(sql)
    .split(/;|-->\s*statement-breakpoint/)
    .map((statement) => statement.trim())
    .filter(Boolean);
  const found: string[] = [];
  for (const statement of statements) {
    for (const { pattern, what } of contractions) {
      if (pattern.test(`${statement};`))
        found.push(`${what}: ${statement.replace(/\s+/g, " ").slice(0, 120)}`);
    }
  }
  return found;
}
