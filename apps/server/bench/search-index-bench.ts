import { setImmediate as nextTurn } from "node:timers/promises";
import { filterList, type OrderedList } from "../src/platform/db/id-list.ts";
import {
  buildTrigramIndex,
  buildTrigramIndexInSlices,
  trigramIndexWeight,
} from "../src/platform/db/trigram-index.ts";

/** The seed's words (test/helpers/large-organization.ts), folded as search_fold folds them. */
const words = [
  "cafe",
  "creme",
  "nova",
  "pulse",
  "atlas",
  "zurich",
  "orbit",
  "senal",
  "kiosk",
  "ledger",
  "hotel",
].concat(["metro", "pixel", "fjord", "dune", "quartz", "ember", "velo", "harbor", "tundra"]);

/** One organization's apps list as kept in memory: title and bundle id, then the project title. */
function appsList(rows: number): OrderedList {
  const texts = Array.from({ length: rows }, (_, row) => {
    const n = row + 1;
    const title = `${words[n % 20]} ${words[Math.floor(n / 20) % 20]} ${n}`;
    return `${title} com.${words[Math.floor(n / 7) % 20]}.app${n}\u0002${title}`;
  });
  const starts = new Uint32Array(rows + 1);
  let offset = 0;
  texts.forEach((text, row) => {
    starts[row] = offset;
    offset += text.length + 1;
  });
  starts[rows] = offset;
  return {
    ids: Float64Array.from(texts, (_, row) => row + 1),
    texts: { joined: texts.join("\u0001"), starts },
  };
}

const timed = (work: () => unknown) => {
  const started = performance.now();
  work();
  return performance.now() - started;
};
const at = (sorted: number[], share: number) => sorted[Math.floor(sorted.length * share)] ?? 0;

/**
 * A title search over 100,000 apps held in memory, for terms of 3–8 characters cut from real
 * texts (as the list bench types them): a scan of every text against the trigram index.
 */
/**
 * Builds the index in slices as the server does, timing each stretch between two pauses: the
 * longest is how long other requests of the process may wait behind the build.
 */
async function slicedBuild(list: OrderedList, rows: number) {
  const stretches: number[] = [];
  let since = performance.now();
  const started = since;
  await buildTrigramIndexInSlices(list.texts as NonNullable<OrderedList["texts"]>, rows, {
    pause: async () => {
      stretches.push(performance.now() - since);
      await nextTurn();
      since = performance.now();
    },
  });
  stretches.push(performance.now() - since);
  return {
    wallMs: performance.now() - started,
    longestSliceMs: Math.max(...stretches),
    slices: stretches.length,
  };
}

export async function runSearchIndexBench(rows = 100_000, termCount = 500) {
  const list = appsList(rows);
  const { joined, starts } = list.texts as NonNullable<OrderedList["texts"]>;
  const terms = Array.from({ length: termCount }, () => {
    const row = Math.floor(Math.random() * rows);
    const text = joined.slice(starts[row], (starts[row + 1] as number) - 1).replace("\u0002", " ");
    const length = 3 + Math.floor(Math.random() * 6);
    const start = Math.floor(Math.random() * Math.max(1, text.length - length));
    return text.slice(start, start + length);
  });
  let indexed: OrderedList = list;
  const buildMs = timed(() => {
    indexed = { ...list, index: buildTrigramIndex(list.texts as NonNullable<OrderedList["texts"]>, rows) };
  });
  const scan: number[] = [];
  const index: number[] = [];
  for (const term of terms) {
    scan.push(timed(() => filterList(list, term)));
    index.push(timed(() => filterList(indexed, term)));
  }
  const figures = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return {
      p50: at(sorted, 0.5),
      p90: at(sorted, 0.9),
      mean: times.reduce((a, b) => a + b, 0) / times.length,
    };
  };
  return {
    rows,
    characters: joined.length,
    buildMs,
    indexMiB: trigramIndexWeight(indexed.index as NonNullable<OrderedList["index"]>) / 1024 / 1024,
    sliced: await slicedBuild(list, rows),
    scan: figures(scan),
    index: figures(index),
  };
}
