/** A case-insensitive "contains" pattern where `%` and `_` in the search are literal characters. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
