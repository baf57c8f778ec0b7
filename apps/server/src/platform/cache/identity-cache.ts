import type { Database, DatabaseHandle } from "../db/client.ts";

/** The channel the identity triggers (migration 0023) notify on. */
export const identityChannel = "identity_changed";

/**
 * Who a token belongs to and the organizations they are a member of (and the apps they open:
 * every change to an app moves its organization's catalog version), kept in the process while
 * nothing about them changes. Only the embedded database offers it: it belongs to this one
 * process, and it delivers the notification of every change to accounts, tokens, memberships
 * and organizations before the statement that made it returns, so the cache is never stale.
 * (With PostgreSQL, other processes would learn of a change only later: every lookup asks it.)
 */
export class IdentityCache {
  private readonly entries = new Map<string, unknown>();
  /** Moves on every change, so a lookup that raced with one does not keep its answer. */
  private epoch = 0;

  constructor(private readonly maxEntries = 10_000) {}

  clear(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const epoch = this.epoch;
    const value = await load();
    if (epoch === this.epoch) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}

/**
 * `load`'s answer, kept under `key` when there is a cache and the read is not part of a
 * transaction (`db` is the process's own handle `root`): a transaction may see its own changes.
 */
export function keptUnlessInTransaction<T>(
  cache: IdentityCache | undefined,
  read: { db: Database; root: Database },
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  return cache && read.db === read.root ? cache.get(key, load) : load();
}

/** The identity cache when the database can tell of every change at once, else none. */
export async function createIdentityCache(handle: DatabaseHandle): Promise<IdentityCache | undefined> {
  if (!handle.onChange) return undefined;
  const cache = new IdentityCache();
  await handle.onChange(identityChannel, () => cache.clear());
  return cache;
}
