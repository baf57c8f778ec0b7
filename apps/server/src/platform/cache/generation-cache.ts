/**
 * A small in-process LRU of serialized responses, each tagged with the generation (a counter kept
 * in the database) it was built from. A lookup with another generation misses, so every instance
 * drops stale entries as soon as the counter moves, without any cross-instance messaging. Entries
 * also expire after `maxAgeMs`, which bounds the age of anything the counter does not cover
 * (signed URLs inside the payload, counters left out of the generation).
 */
export class GenerationCache {
  private readonly entries = new Map<string, { generation: number; storedAt: number; value: string }>();

  constructor(private readonly options: { maxEntries: number; maxAgeMs: number; now?: () => number }) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  get(key: string, generation: number): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== generation || this.now() - entry.storedAt > this.options.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert so the Map's insertion order doubles as recency order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, generation: number, value: string): void {
    this.entries.delete(key);
    this.entries.set(key, { generation, storedAt: this.now(), value });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** Returns the cached value or builds, stores and returns it. */
  async getOrBuild(key: string, generation: number, build: () => Promise<string>): Promise<string> {
    const cached = this.get(key, generation);
    if (cached !== undefined) return cached;
    const value = await build();
    this.set(key, generation, value);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
