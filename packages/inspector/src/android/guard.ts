import { InspectError } from "../errors.ts";

/** Malformed input surfaces from Buffer reads as RangeError/TypeError; the caller must only ever see InspectError. */
export async function guardAndroid<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InspectError) throw error;
    if (error instanceof RangeError || error instanceof TypeError) {
      throw new InspectError("corrupt", `malformed Android package: ${error.message}`);
    }
    throw error;
  }
}
