type Waiting<V> = Array<{ resolve: (value: V | undefined) => void; reject: (error: unknown) => void }>;

/**
 * Reads by key that are asked in the same turn of the event loop, answered by one statement for
 * all of their keys. A busy web process receives many requests at once, and each used to read
 * its token (say) with a statement of its own: with 32 clients, most of the server's time went
 * into the round trips rather than the rows. Here the first read of a turn opens a batch, the
 * others of that turn join it, and the batch is sent once the turn's I/O callbacks have run
 * (setImmediate), as one statement for every distinct key.
 *
 * Reads come in groups (an organization, say) when one statement cannot serve two of them:
 * each group's reads are batched apart, and its statement is told the group.
 *
 * A read never joins a statement already sent, so it sees the database as it was after the read
 * was asked, exactly as a statement of its own would: a token revoked before the request arrived
 * is revoked for it. When the statement fails, every read of the batch fails with its error.
 */
export class BatchedReads<K, V, G extends string | number = string> {
  private readonly open = new Map<G, Map<K, Waiting<V>>>();

  constructor(
    /** Reads the values of these distinct keys; a key without a value is left out of the map. */
    private readonly readMany: (keys: K[], group: G) => Promise<Map<K, V>>,
    /** The most keys one statement carries; past it, the next read opens another batch. */
    private readonly maxKeys = 500,
  ) {}

  read(key: K, group = "" as G): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      let batch = this.open.get(group);
      if (!batch || (batch.size >= this.maxKeys && !batch.has(key))) {
        const opened = new Map<K, Waiting<V>>();
        this.open.set(group, opened);
        setImmediate(() => this.send(opened, group));
        batch = opened;
      }
      const waiting = batch.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else batch.set(key, [{ resolve, reject }]);
    });
  }

  private async send(batch: Map<K, Waiting<V>>, group: G): Promise<void> {
    if (this.open.get(group) === batch) this.open.delete(group);
    try {
      const values = await this.readMany([...batch.keys()], group);
      for (const [key, waiting] of batch) for (const { resolve } of waiting) resolve(values.get(key));
    } catch (error) {
      for (const waiting of batch.values()) for (const { reject } of waiting) reject(error);
    }
  }
}
