import webPush from "web-push";
import type { SecretBox } from "../../platform/crypto/secret-box.ts";
import type { Database } from "../../platform/db/client.ts";
import { findServerKeys, insertServerKeysOnce } from "./push.repo.ts";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair: the configured one, or the one in the database, made by whichever process
 * asked first. A browser's subscription is bound to the public key it was made with, so every
 * web and worker process must sign with the same pair; the database is the one place they all
 * share (a data directory is not shared between machines). Read once per process.
 */
export class ServerKeys {
  private loaded: Promise<VapidKeys> | null = null;

  constructor(
    private readonly deps: {
      db: Database;
      box: SecretBox;
      configured: { publicKey?: string | undefined; privateKey?: string | undefined };
    },
  ) {}

  get(): Promise<VapidKeys> {
    this.loaded ??= this.load().catch((error: unknown) => {
      // A failed read (the database restarting) is tried again by the next caller.
      this.loaded = null;
      throw error;
    });
    return this.loaded;
  }

  private async load(): Promise<VapidKeys> {
    const { publicKey, privateKey } = this.deps.configured;
    if (publicKey && privateKey) return { publicKey, privateKey };
    const stored = await findServerKeys(this.deps.db);
    if (stored) return this.opened(stored);
    const made = webPush.generateVAPIDKeys();
    await insertServerKeysOnce(this.deps.db, {
      publicKey: made.publicKey,
      sealedPrivateKey: this.deps.box.seal(made.privateKey),
    });
    // Another process may have stored its pair first: the stored pair is the one every process uses.
    const winner = await findServerKeys(this.deps.db);
    if (!winner) throw new Error("the push key pair was not stored");
    return this.opened(winner);
  }

  private opened(row: { publicKey: string; sealedPrivateKey: string }): VapidKeys {
    return { publicKey: row.publicKey, privateKey: this.deps.box.open(row.sealedPrivateKey) };
  }
}
