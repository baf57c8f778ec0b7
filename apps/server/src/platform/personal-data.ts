/**
 * One section of a personal data export. Each module that stores something about a person
 * contributes its own sections, so the export module never reads another module's tables.
 */
export interface PersonalDataSection {
  /** The key of the section in the exported JSON document. */
  name: string;
  load(person: { id: number; email: string }, now: Date): Promise<unknown>;
}

export function isoOrNull(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}
