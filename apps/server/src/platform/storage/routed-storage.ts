import type { Readable } from "node:stream";
import type { Assembly, PieceInput, StoredPiece } from "./assembly.ts";
import { qualifiedKey, splitKey } from "./location-keys.ts";
import type {
  ByteRange,
  ObjectInfo,
  SignedUrlOptions,
  StorageDriver,
  StoredObject,
} from "./storage-driver.ts";

export type StorageOperation = "put" | "read" | "stat" | "delete" | "signedUrl" | "assemble";

interface Target {
  driver: StorageDriver;
  key: string;
  location: number | null;
}

/** The organization storage locations this instance knows, installed by the module that owns them. */
export interface StorageLocations {
  /** The driver of a location (rows never change, so drivers can be kept). */
  driverOf(location: number): Promise<StorageDriver>;
  /** Every location, or an organization's (current and former). */
  ids(organizationId?: number): Promise<number[]>;
}

/**
 * The storage every module uses: keys qualified with a location (`loc/{id}/…`) go to that
 * organization storage, all others to the instance's storage. Callers keep the key `put`
 * answered and hand it back for reads, signed URLs and deletes, wherever the file lives.
 */
export class RoutedStorage implements StorageDriver {
  readonly name: string;
  private locations: StorageLocations = {
    driverOf: async (location) => {
      throw new Error(`storage location ${location} is unknown to this process`);
    },
    ids: async () => [],
  };

  /** `onError` hears of every failed operation (the metrics count them); the error still reaches the caller. */
  constructor(
    readonly instance: StorageDriver,
    private readonly onError: (operation: StorageOperation) => void = () => undefined,
  ) {
    this.name = instance.name;
  }

  /** Settled unless a backup holds deletions back (see holdDeletions). */
  private deletionsResume: Promise<void> = Promise.resolve();

  /**
   * Holds every delete back until `work` ends, so a backup's copy of the files has every file its
   * database dump refers to. A delete meanwhile waits; nothing fails.
   */
  async holdDeletions<T>(work: () => Promise<T>): Promise<T> {
    const done = work();
    const previous = this.deletionsResume;
    this.deletionsResume = done.then(
      () => previous,
      () => previous,
    );
    return done;
  }

  /** Installed by the module that owns the locations' settings. */
  useLocations(locations: StorageLocations): void {
    this.locations = locations;
  }

  private async route(key: string): Promise<Target> {
    const split = splitKey(key);
    if (split.location === null) return { driver: this.instance, ...split };
    return { driver: await this.locations.driverOf(split.location), ...split };
  }

  /** One operation on the storage that holds `key`. */
  private async on<T>(
    operation: StorageOperation,
    key: string,
    work: (target: Target) => Promise<T>,
  ): Promise<T> {
    try {
      return await work(await this.route(key));
    } catch (error) {
      this.onError(operation);
      throw error;
    }
  }

  async put(key: string, body: Readable, options?: { maxBytes?: number }): Promise<StoredObject> {
    const stored = await this.on("put", key, (target) => target.driver.put(target.key, body, options));
    return { ...stored, key };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    return this.on("read", key, (target) => target.driver.read(target.key, range));
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const info = await this.on("stat", key, (target) => target.driver.stat(target.key));
    return info && { ...info, key };
  }

  async delete(key: string): Promise<void> {
    // While a backup copies the files, the files its database dump names must stay.
    await this.deletionsResume;
    await this.on("delete", key, (target) => target.driver.delete(target.key));
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    const target = await this.route(prefix);
    for await (const info of target.driver.list(target.key)) {
      yield target.location === null ? info : { ...info, key: qualifiedKey(target.location, info.key) };
    }
  }

  /**
   * An assembly's records carry location-qualified keys like every stored key; its driver sees
   * its own. The object and its scratch prefix are in one location.
   */
  private async assemblyTarget(assembly: Assembly) {
    const target = await this.route(assembly.key);
    const scratch = splitKey(assembly.scratch);
    if (scratch.location !== target.location) throw new Error("an assembly's scratch is in another location");
    const own = (key: string | null) => (key === null ? null : splitKey(key).key);
    const qualify = (key: string) => (target.location === null ? key : qualifiedKey(target.location, key));
    return {
      driver: target.driver,
      assembly: { ...assembly, key: target.key, scratch: scratch.key },
      pieceOf: (piece: StoredPiece): StoredPiece => ({ ...piece, objectKey: own(piece.objectKey) }),
      pieceFrom: (piece: StoredPiece): StoredPiece => ({
        ...piece,
        objectKey: piece.objectKey === null ? null : qualify(piece.objectKey),
      }),
    };
  }

  async startAssembly(key: string, scratch: string): Promise<Assembly> {
    return this.on("assemble", key, async (target) => {
      const started = await target.driver.startAssembly(target.key, splitKey(scratch).key);
      return { ...started, key, scratch };
    });
  }

  async storePiece(assembly: Assembly, piece: PieceInput, earlier: StoredPiece[]): Promise<StoredPiece> {
    return this.on("assemble", assembly.key, async () => {
      const target = await this.assemblyTarget(assembly);
      const stored = await target.driver.storePiece(target.assembly, piece, earlier.map(target.pieceOf));
      return target.pieceFrom(stored);
    });
  }

  async completeAssembly(assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    await this.on("assemble", assembly.key, async () => {
      const target = await this.assemblyTarget(assembly);
      await target.driver.completeAssembly(target.assembly, pieces.map(target.pieceOf));
    });
  }

  async abortAssembly(assembly: Assembly, pieces: StoredPiece[]): Promise<void> {
    await this.deletionsResume;
    await this.on("assemble", assembly.key, async () => {
      const target = await this.assemblyTarget(assembly);
      await target.driver.abortAssembly(target.assembly, pieces.map(target.pieceOf));
    });
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    return this.on("signedUrl", key, (target) => target.driver.signedUrl(target.key, options));
  }

  /** A URL straight to the file's storage, when its storage serves downloads itself; else null. */
  async directUrl(key: string, options: SignedUrlOptions): Promise<string | null> {
    const target = await this.route(key);
    return target.driver.servesDirectly ? target.driver.signedUrl(target.key, options) : null;
  }

  checkHealth(): Promise<void> {
    return this.instance.checkHealth();
  }

  /** Where an organization's files may be (or every organization's): "" and `loc/{id}/` roots. */
  async roots(organizationId?: number): Promise<string[]> {
    const ids = await this.locations.ids(organizationId);
    return ["", ...ids.map((id) => qualifiedKey(id, ""))];
  }

  async deleteStaleTemporaryFiles(
    olderThan: Date,
    inUse?: (key: string) => Promise<boolean>,
  ): Promise<number> {
    let deleted = (await this.instance.deleteStaleTemporaryFiles?.(olderThan, inUse)) ?? 0;
    for (const id of await this.locations.ids()) {
      // An organization's bucket that is down must not stop the sweep of everyone else's.
      const driver = await this.locations.driverOf(id).catch(() => null);
      const inUseThere = inUse && ((key: string) => inUse(qualifiedKey(id, key)));
      deleted += (await driver?.deleteStaleTemporaryFiles?.(olderThan, inUseThere).catch(() => 0)) ?? 0;
    }
    return deleted;
  }

  /** The same storage, placing new files (`put` with an unqualified key) in `location`. */
  placingIn(location: number): StorageDriver {
    const placed = (key: string) => (splitKey(key).location === null ? qualifiedKey(location, key) : key);
    const put: StorageDriver["put"] = (key, body, options) => this.put(placed(key), body, options);
    const startAssembly: StorageDriver["startAssembly"] = (key, scratch) =>
      this.startAssembly(placed(key), placed(scratch));
    return Object.assign(Object.create(this) as RoutedStorage, { put, startAssembly });
  }
}
