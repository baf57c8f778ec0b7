/** Where commands write: stdout carries results (or the one --json object), stderr the rest. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
};

export const printJson = (io: Io, value: unknown) => io.out(`${JSON.stringify(value, null, 2)}\n`);

/** Columns padded to their widest cell, for lists read by people. */
export function table(rows: string[][]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join("  "),
    )
    .join("\n");
}

export const platformNames = ["Android", "iOS", "Windows", "macOS"];
