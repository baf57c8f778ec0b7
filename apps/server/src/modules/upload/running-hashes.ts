import { createHash, type Hash } from "node:crypto";

/**
 * The SHA-256 of each resumable upload's kept bytes so far, in the process that received them,
 * so a finish needs no second read of a gigabyte. Hash states cannot leave a process, so one that
 * did not see every byte of an upload has none for it, and its finish reads the stored object
 * once instead. A state is tied to the offset it covers: any gap makes it useless.
 */
export class RunningHashes {
  private readonly states = new Map<string, { offset: number; hash: Hash }>();

  /** At most this many uploads are tracked; the least recently fed are forgotten first. */
  constructor(private readonly capacity = 2000) {}

  /**
   * A hash of the upload's first `offset` bytes to go on with (a copy: a piece that fails must
   * leave the kept one as it was), or null when this process did not see them all.
   */
  resume(id: string, offset: number): Hash | null {
    if (offset === 0) return createHash("sha256");
    const state = this.states.get(id);
    return state && state.offset === offset ? state.hash.copy() : null;
  }

  keep(id: string, offset: number, hash: Hash): void {
    this.states.delete(id);
    this.states.set(id, { offset, hash });
    for (const oldest of this.states.keys()) {
      if (this.states.size <= this.capacity) break;
      this.states.delete(oldest);
    }
  }

  /** The hex digest of the upload's first `offset` bytes, if this process has it; forgets it. */
  take(id: string, offset: number): string | null {
    const hash = this.resume(id, offset);
    this.states.delete(id);
    return hash ? hash.digest("hex") : null;
  }

  forget(id: string): void {
    this.states.delete(id);
  }
}
