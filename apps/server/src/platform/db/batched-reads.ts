/**
 * Reads by key that are asked in the same turn of the event loop, answered by one statement for
 * all of their keys. A busy web process receives many requests at once, and each used to read
 * its token (say) with a statement of its own: with 32 clients, most of the server's time went
 * into the round trips rather than the rows. Here the first read of a turn opens a batch, the
 * others of that turn join it, and the batch is sent once the turn's I/O callbacks have run
 * (setImmediate), as one statement for every distinct key.
 *
 * A read never joins a statement already sent, so it sees the database as it was after the read
 * was asked, exactly as a statement of its own would: a token revoked before the request arrived
 * is revoked for it. When the statement fails, every read of the batch fails with its error.
 */
export class BatchedReads<K, V> {
  private open: Map<
    K,
    Array<{ resolve: (value: V | undefined) => void; reject: (error: unknown) => void }>
  > | null = null;

  constructor(
    /** Reads the values of these distinct keys; a key without a value is left out of the map. */
    private readonly readMany: (keys: K[]) => Promise<Map<K, V>>,
    /** The most keys one statement carries; past it, the next read opens another batch. */
    private readonly maxKeys = 500,
  ) {}

  read(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      let batch = this.open;
      if (!batch || (batch.size >= this.maxKeys && !batch.has(key))) {
        batch = new Map();
        this.open = batch;
        const sending = batch;
        setImmediate(() => this.send(sending));
      }
      const waiting = batch.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else batch.set(key, [{ resolve, reject }]);
    });
  }

  private async send(batch: NonNullable<typeof this.open>): Promise<void> {
    if (this.open === batch) this.open = null;
    try {
      const values = await this.readMany([...batch.keys()]);
      for (const [key, waiting] of batch) for (const { resolve } of waiting) resolve(values.get(key));
    } catch (error) {
      for (const waiting of batch.values()) for (const { reject } of waiting) reject(error);
    }
  }
}
