import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { checkPixelBudget, encodePng } from "../apple/png.ts";
import type { Icon } from "../types.ts";

/**
 * WebP images (lossy VP8, lossless VP8L, extended VP8X with alpha) decoded by libwebp compiled to
 * WebAssembly (@jsquash/webp): a hostile file can only reach the decoder's own linear memory.
 * The dimensions are read from the RIFF chunks first and held to the icon pixel budget, so the
 * decoder never allocates more than a bounded image; animations are not icons and are skipped.
 */

interface Decoded {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

type Decoder = (data: ArrayBuffer) => Promise<Decoded>;

/** Node's WebAssembly global, which the ES2023 library types do not declare. */
const { WebAssembly: wasmRuntime } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<object> };
};

let decoder: Promise<Decoder> | null = null;

/** Loads the decoder once, compiling its .wasm from node_modules (no network, no fetch). */
function loadDecoder(): Promise<Decoder> {
  decoder ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasm = await readFile(require.resolve("@jsquash/webp/codec/dec/webp_dec.wasm"));
    const codec = (await import("@jsquash/webp/decode.js")) as unknown as {
      init(module: object): Promise<void>;
      default: Decoder;
    };
    await codec.init(await wasmRuntime.compile(wasm));
    return codec.default;
  })();
  return decoder;
}

export function isWebp(data: Buffer): boolean {
  return (
    data.length >= 16 && data.toString("latin1", 0, 4) === "RIFF" && data.toString("latin1", 8, 12) === "WEBP"
  );
}

/**
 * The largest dimensions any chunk declares (the VP8X canvas, the VP8 or VP8L frame), or null
 * when the file is not a still WebP image this reader takes.
 */
export function readWebpSize(data: Buffer): { width: number; height: number } | null {
  if (!isWebp(data)) return null;
  let width = 0;
  let height = 0;
  let frames = 0;
  for (let at = 12; at + 8 <= data.length; ) {
    const type = data.toString("latin1", at, at + 4);
    const size = data.readUInt32LE(at + 4);
    const body = at + 8;
    if (size > data.length - body) return null;
    if (type === "VP8X" && size >= 10) {
      if ((data[body] ?? 0) & 0x02) return null; // animation flag
      width = Math.max(width, data.readUIntLE(body + 4, 3) + 1);
      height = Math.max(height, data.readUIntLE(body + 7, 3) + 1);
    } else if (type === "VP8 " && size >= 10) {
      if (data[body + 3] !== 0x9d || data[body + 4] !== 0x01 || data[body + 5] !== 0x2a) return null;
      width = Math.max(width, data.readUInt16LE(body + 6) & 0x3fff);
      height = Math.max(height, data.readUInt16LE(body + 8) & 0x3fff);
      frames++;
    } else if (type === "VP8L" && size >= 5) {
      if (data[body] !== 0x2f) return null;
      const bits = data.readUInt32LE(body + 1);
      width = Math.max(width, (bits & 0x3fff) + 1);
      height = Math.max(height, ((bits >>> 14) & 0x3fff) + 1);
      frames++;
    } else if (type === "ANIM" || type === "ANMF") return null;
    at = body + size + (size & 1);
  }
  if (frames !== 1 || width === 0 || height === 0) return null;
  return { width, height };
}

/**
 * A still WebP as a PNG icon, or null when it is not one, is over the pixel budget
 * (limits.maxIconBytes of RGBA) or does not decode.
 */
export async function webpToIcon(data: Buffer): Promise<Icon | null> {
  const size = readWebpSize(data);
  if (!size) return null;
  try {
    checkPixelBudget(size.width, size.height, 4);
  } catch {
    return null;
  }
  const decode = await loadDecoder();
  let image: Decoded;
  try {
    const copy = new Uint8Array(data.length);
    copy.set(data);
    image = await decode(copy.buffer);
  } catch {
    return null;
  }
  if (image.width !== size.width || image.height !== size.height) return null;
  const rgba = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return { png: encodePng(image.width, image.height, rgba), width: image.width, height: image.height };
}
