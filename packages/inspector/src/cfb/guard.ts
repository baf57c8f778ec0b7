import { InspectError } from "../errors.ts";

/**
 * Malformed bytes surface as RangeError/TypeError from Buffer reads and decoders; for a reader
 * they mean a corrupt file, never a crash. Anything else is a real fault and propagates.
 */
export async function guardCorrupt<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InspectError) throw error;
    if (error instanceof RangeError || error instanceof TypeError) {
      throw new InspectError("corrupt", `malformed ${what}: ${error.message}`);
    }
    throw error;
  }
}
