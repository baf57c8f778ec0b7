import { describe, expect, it } from "vitest";
import { BatchedReads } from "./batched-reads.ts";

/** A reader that records each statement's keys and answers with the doubled key (odd keys only). */
function doubling() {
  const statements: number[][] = [];
  const reads = new BatchedReads<number, number>(async (keys) => {
    statements.push(keys);
    return new Map(keys.filter((key) => key % 2 === 1).map((key) => [key, key * 2]));
  }, 3);
  return { statements, reads };
}

describe("BatchedReads", () => {
  it("answers the reads of one turn with one statement of their distinct keys", async () => {
    const { statements, reads } = doubling();
    const answers = await Promise.all([reads.read(1), reads.read(2), reads.read(1), reads.read(3)]);
    expect(answers).toEqual([2, undefined, 2, 6]);
    expect(statements).toEqual([[1, 2, 3]]);
  });

  it("never adds a read to a statement already sent", async () => {
    const { statements, reads } = doubling();
    const first = reads.read(1);
    // The batch is sent after this turn; a read asked once it is under way opens another.
    await new Promise((resolve) => setImmediate(resolve));
    const second = reads.read(1);
    expect(await Promise.all([first, second])).toEqual([2, 2]);
    expect(statements).toEqual([[1], [1]]);
  });

  it("opens another batch past the most keys a statement carries", async () => {
    const { statements, reads } = doubling();
    await Promise.all([1, 3, 5, 3, 7, 9].map((key) => reads.read(key)));
    expect(statements).toEqual([
      [1, 3, 5],
      [7, 9],
    ]);
  });

  it("batches each group apart and tells its statement the group", async () => {
    const statements: Array<[number, number[]]> = [];
    const reads = new BatchedReads<number, string, number>(async (keys, organization) => {
      statements.push([organization, keys]);
      return new Map(keys.map((key) => [key, `${organization}/${key}`]));
    });
    const answers = await Promise.all([reads.read(1, 7), reads.read(1, 8), reads.read(2, 7)]);
    expect(answers).toEqual(["7/1", "8/1", "7/2"]);
    expect(statements).toEqual([
      [7, [1, 2]],
      [8, [1]],
    ]);
  });

  it("fails every read of a failed statement, and the next batch reads again", async () => {
    let failing = true;
    const reads = new BatchedReads<string, string>(async (keys) => {
      if (failing) throw new Error("connection lost");
      return new Map(keys.map((key) => [key, key.toUpperCase()]));
    });
    const results = await Promise.allSettled([reads.read("a"), reads.read("b")]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    failing = false;
    expect(await reads.read("a")).toBe("A");
  });
});
