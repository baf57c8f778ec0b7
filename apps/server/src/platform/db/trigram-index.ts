import { setImmediate as nextTurn } from "node:timers/promises";
import type { SearchTexts } from "./id-list.ts";

/**
 * Which rows of a kept list contain each trigram (three consecutive characters) of their folded
 * search text: a search then checks only the rows that hold the term's rarest trigrams instead
 * of scanning every text. Scanning 100,000 app texts (5 million characters) costs about 4 ms a
 * term; most terms hold a trigram found in a few hundred rows.
 *
 * Characters fold into 64 symbols: letters, digits and common punctuation each have their own;
 * any other character shares one of the remaining symbols, so candidates are always checked
 * against the text itself unless the term is exactly one trigram of distinct symbols.
 */
export interface TrigramIndex {
  /** Postings of trigram `code` are rows[offsets[code] .. offsets[code + 1]), ascending. */
  offsets: Uint32Array;
  rows: Uint32Array;
}

const symbolBits = 6;
const trigramCount = 1 << (3 * symbolBits);
const exactCharacters = "abcdefghijklmnopqrstuvwxyz0123456789 .-_@+'/:,&()";
const sharedSymbols = (1 << symbolBits) - exactCharacters.length;
const asciiSymbols = new Int8Array(128).fill(-1);
for (const [symbol, character] of [...exactCharacters].entries())
  asciiSymbols[character.charCodeAt(0)] = symbol;

function symbolOf(code: number): number {
  const exact = code < 128 ? (asciiSymbols[code] as number) : -1;
  return exact >= 0 ? exact : exactCharacters.length + (code % sharedSymbols);
}

const isExact = (code: number) => code < 128 && (asciiSymbols[code] as number) >= 0;

/**
 * Calls `visit(row, trigram)` once for each distinct trigram of each row, yielding after every
 * `rowsPerSlice` rows so that a caller can let other work run in between.
 */
function* eachRowTrigram(
  texts: SearchTexts,
  rowCount: number,
  rowsPerSlice: number,
  visit: (row: number, code: number) => void,
): Generator<void, void> {
  const { joined, starts } = texts;
  const lastRow = new Int32Array(trigramCount).fill(-1);
  for (let row = 0; row < rowCount; row += 1) {
    if (row > 0 && row % rowsPerSlice === 0) yield;
    const start = starts[row] as number;
    const end = (starts[row + 1] as number) - 1;
    let code = 0;
    for (let at = start; at < end; at += 1) {
      code = ((code << symbolBits) | symbolOf(joined.charCodeAt(at))) & (trigramCount - 1);
      if (at - start >= 2 && lastRow[code] !== row) {
        lastRow[code] = row;
        visit(row, code);
      }
    }
  }
}

/** The steps of indexing `rowCount` rows (two passes: count, then place), in slices of rows. */
function* indexing(
  texts: SearchTexts,
  rowCount: number,
  rowsPerSlice: number,
): Generator<void, TrigramIndex> {
  const offsets = new Uint32Array(trigramCount + 1);
  yield* eachRowTrigram(texts, rowCount, rowsPerSlice, (_row, code) => {
    offsets[code + 1] = (offsets[code + 1] as number) + 1;
  });
  for (let code = 0; code < trigramCount; code += 1) {
    offsets[code + 1] = (offsets[code + 1] as number) + (offsets[code] as number);
  }
  const rows = new Uint32Array(offsets[trigramCount] as number);
  const next = offsets.slice(0, trigramCount);
  yield* eachRowTrigram(texts, rowCount, rowsPerSlice, (row, code) => {
    rows[next[code] as number] = row;
    next[code] = (next[code] as number) + 1;
  });
  return { offsets, rows };
}

/** Indexes the texts of a list's `rowCount` rows at once. */
export function buildTrigramIndex(texts: SearchTexts, rowCount: number): TrigramIndex {
  const steps = indexing(texts, rowCount, Number.MAX_SAFE_INTEGER);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * As buildTrigramIndex, a slice of rows at a time with `pause` (the next turn of the event loop)
 * in between: indexing 100,000 apps takes 150–230 ms of CPU, which at once would hold up every
 * other request of the process for that long.
 */
export async function buildTrigramIndexInSlices(
  texts: SearchTexts,
  rowCount: number,
  options: { rowsPerSlice?: number; pause?: () => Promise<void> } = {},
): Promise<TrigramIndex> {
  const steps = indexing(texts, rowCount, options.rowsPerSlice ?? 5_000);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await (options.pause ? options.pause() : nextTurn());
  }
}

/** About the bytes an index holds. */
export const trigramIndexWeight = (index: TrigramIndex) => index.offsets.byteLength + index.rows.byteLength;

function postingsOf(index: TrigramIndex, code: number): Uint32Array {
  return index.rows.subarray(index.offsets[code], index.offsets[code + 1]);
}

/** The rows in both ascending lists. */
function intersect(left: Uint32Array, right: Uint32Array): Uint32Array {
  const both = new Uint32Array(Math.min(left.length, right.length));
  let found = 0;
  for (let i = 0, j = 0; i < left.length && j < right.length; ) {
    const a = left[i] as number;
    const b = right[j] as number;
    if (a === b) {
      both[found] = a;
      found += 1;
      i += 1;
      j += 1;
    } else if (a < b) i += 1;
    else j += 1;
  }
  return both.subarray(0, found);
}

/**
 * The rows (ascending) whose text contains `folded`, a folded term of three characters or more:
 * the rows holding its two rarest trigrams, each checked against its text. When those are many
 * (a term as common as "com" in bundle ids), one pass of the engine's substring search over all
 * texts costs less than checking each candidate's own text.
 */
export function rowsContaining(texts: SearchTexts, index: TrigramIndex, folded: string): Uint32Array {
  const codes = new Set<number>();
  let code = 0;
  for (let at = 0; at < folded.length; at += 1) {
    code = ((code << symbolBits) | symbolOf(folded.charCodeAt(at))) & (trigramCount - 1);
    if (at >= 2) codes.add(code);
  }
  const [rarest, next] = [...codes]
    .map((trigram) => postingsOf(index, trigram))
    .sort((left, right) => left.length - right.length);
  if (!rarest) return new Uint32Array(0);
  const candidates = next ? intersect(rarest, next) : rarest;
  // One trigram of characters with symbols of their own needs no second look.
  const certain = folded.length === 3 && [...folded].every((character) => isExact(character.charCodeAt(0)));
  if (certain) return candidates;
  if (candidates.length * scanShare > texts.starts.length - 1) return rowsByScan(texts, folded);
  return checkedRows(texts, candidates, folded);
}

/** Past one candidate in this many rows, a scan of all texts is the quicker check. */
const scanShare = 8;

/** The candidate rows whose text contains `folded`. */
function checkedRows(texts: SearchTexts, candidates: Uint32Array, folded: string): Uint32Array {
  const { joined, starts } = texts;
  const found = new Uint32Array(candidates.length);
  let count = 0;
  for (const row of candidates) {
    // A row's own text is short: searching it is quicker than searching on from its start.
    if (joined.substring(starts[row] as number, (starts[row + 1] as number) - 1).includes(folded)) {
      found[count] = row;
      count += 1;
    }
  }
  return found.subarray(0, count);
}

/**
 * The rows (ascending) whose text contains `folded` (not empty): the engine's substring search
 * runs over all texts at once, and each hit skips to the next row.
 */
export function rowsByScan(texts: SearchTexts, folded: string): Uint32Array {
  const { joined, starts } = texts;
  const found: number[] = [];
  let row = 0;
  // Past the last row, its start lies beyond the text and the search finds nothing more.
  for (let at = joined.indexOf(folded); at >= 0; at = joined.indexOf(folded, starts[row])) {
    while ((starts[row + 1] as number) <= at) row += 1;
    found.push(row);
    row += 1;
  }
  return Uint32Array.from(found);
}
