/**
 * A small in-process LRU of values (serialized responses, a list's ordered ids), each tagged with
 * the generation (a counter kept in the database) it was built from. A lookup with another
 * generation misses, so every instance drops stale entries as soon as the counter moves, without
 * any cross-instance messaging. Entries also expire after `maxAgeMs`, which bounds the age of
 * anything the counter does not cover (signed URLs inside the payload, counters left out of the
 * generation). The cache is bounded by entries and by weight (about bytes, as `weigh` reckons).
 */
export class GenerationCache<V = string> {
  private readonly entries = new Map<
    string,
    { generation: number; storedAt: number; value: V; weight: number }
  >();
  /** Builds under way, so concurrent misses of one key share one build. */
  private readonly building = new Map<string, { generation: number; promise: Promise<V> }>();
  private totalWeight = 0;

  constructor(
    private readonly options: {
      maxEntries: number;
      maxAgeMs: number;
      /** Defaults to a string's length (about its size in bytes), a Buffer's size, or 1. */
      weigh?: (value: V) => number;
      maxWeight?: number;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private weigh(value: V): number {
    if (this.options.weigh) return this.options.weigh(value);
    if (typeof value === "string") return value.length;
    return Buffer.isBuffer(value) ? value.byteLength : 1;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.totalWeight -= entry.weight;
    this.entries.delete(key);
  }

  get(key: string, generation: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== generation || this.now() - entry.storedAt > this.options.maxAgeMs) {
      this.remove(key);
      return undefined;
    }
    // Re-insert so the Map's insertion order doubles as recency order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, generation: number, value: V): void {
    this.remove(key);
    const weight = this.weigh(value);
    this.entries.set(key, { generation, storedAt: this.now(), value, weight });
    this.totalWeight += weight;
    const maxWeight = this.options.maxWeight ?? Number.POSITIVE_INFINITY;
    while (this.entries.size > this.options.maxEntries || this.totalWeight > maxWeight) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
  }

  /**
   * Returns the cached value or builds, stores and returns it. Requests missing the same key and
   * generation at once wait for one build instead of each running it (a list's first request
   * after a change is the expensive one).
   */
  async getOrBuild(key: string, generation: number, build: () => Promise<V>): Promise<V> {
    const cached = this.get(key, generation);
    if (cached !== undefined) return cached;
    const pending = this.building.get(key);
    if (pending?.generation === generation) return pending.promise;
    const promise = build().then((value) => {
      this.set(key, generation, value);
      return value;
    });
    const done = () => {
      if (this.building.get(key)?.promise === promise) this.building.delete(key);
    };
    promise.then(done, done);
    this.building.set(key, { generation, promise });
    return promise;
  }

  get size(): number {
    return this.entries.size;
  }
}
