/**
 * Writes the personal data export: one JSON document with everything stored about a user.
 * Each module contributes the sections of what it stores (see PersonalDataSection); they are
 * queried and written one after another, so the document streams to storage instead of being
 * held whole in memory. Secrets (password and token hashes, the 2FA secret, code hashes) are
 * left out by every section; their existence and metadata are reported instead.
 */
import type { PersonalDataSection } from "../../platform/personal-data.ts";

export const exportFormat = "tarmac-personal-data/1";

/** The document as UTF-8 chunks, one section at a time. */
export async function* writeExportDocument(
  sections: PersonalDataSection[],
  person: { id: number; email: string },
  now: Date,
): AsyncGenerator<Buffer> {
  const all: PersonalDataSection[] = [
    { name: "format", load: async () => exportFormat },
    { name: "generated_at", load: async () => now.toISOString() },
    ...sections,
  ];
  let first = true;
  for (const section of all) {
    const value = await section.load(person, now);
    yield Buffer.from(
      `${first ? "{\n" : ",\n"}${JSON.stringify(section.name)}: ${JSON.stringify(value, null, 2)}`,
    );
    first = false;
  }
  yield Buffer.from("\n}\n");
}
