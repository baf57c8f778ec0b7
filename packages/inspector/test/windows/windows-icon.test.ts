import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readChunks, unfilterScanlines } from "../../src/apple/png.ts";
import { InspectError } from "../../src/errors.ts";
import { readIcoAsPng } from "../../src/formats/windows-icon.ts";

interface Image {
  width: number;
  height: number;
  bitCount: number;
  data: Buffer;
}

/** An ICO file: the 6-byte header, one 16-byte directory entry per image, then the images. */
function buildIco(images: Image[]): Buffer {
  const header = Buffer.alloc(6 + images.length * 16);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach((image, index) => {
    const at = 6 + index * 16;
    header[at] = image.width & 0xff;
    header[at + 1] = image.height & 0xff;
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(image.bitCount, at + 6);
    header.writeUInt32LE(image.data.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += image.data.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.data)]);
}

/** A DIB as ICO stores it: header with doubled height, palette, bottom-up rows, AND mask. */
function buildDib(
  width: number,
  height: number,
  bitCount: number,
  pixel: (x: number, y: number) => number[],
  options: { palette?: number[][]; masked?: (x: number, y: number) => boolean; compression?: number } = {},
): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(bitCount, 14);
  header.writeUInt32LE(options.compression ?? 0, 16);
  header.writeUInt32LE(options.palette?.length ?? 0, 32);
  const palette = Buffer.concat(
    (options.palette ?? []).map(([r, g, b]) => Buffer.from([b ?? 0, g ?? 0, r ?? 0, 0])),
  );
  const stride = Math.ceil((width * bitCount) / 32) * 4;
  const pixels = Buffer.alloc(stride * height);
  const maskStride = Math.ceil(width / 32) * 4;
  const mask = Buffer.alloc(maskStride * height);
  for (let y = 0; y < height; y++) {
    const row = (height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const value = pixel(x, y);
      if (bitCount >= 24) {
        const [r, g, b, a] = value;
        const at = row + x * (bitCount / 8);
        pixels[at] = b ?? 0;
        pixels[at + 1] = g ?? 0;
        pixels[at + 2] = r ?? 0;
        if (bitCount === 32) pixels[at + 3] = a ?? 0;
      } else {
        const bit = x * bitCount;
        pixels[row + (bit >> 3)] =
          (pixels[row + (bit >> 3)] as number) | ((value[0] ?? 0) << (8 - bitCount - (bit & 7)));
      }
      if (options.masked?.(x, y)) {
        const maskRow = (height - 1 - y) * maskStride;
        mask[maskRow + (x >> 3)] = (mask[maskRow + (x >> 3)] as number) | (0x80 >> (x & 7));
      }
    }
  }
  return Buffer.concat([header, palette, pixels, mask]);
}

function pixels(png: Buffer, width: number): (x: number, y: number) => string {
  const raw = inflateSync(
    Buffer.concat(
      readChunks(png)
        .filter((c) => c.type === "IDAT")
        .map((c) => c.data),
    ),
  );
  const rgba = unfilterScanlines(raw, width, raw.length / (1 + width * 4), 4);
  return (x, y) => {
    const at = (y * width + x) * 4;
    return rgba.subarray(at, at + 4).toString("hex");
  };
}

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof InspectError) return `${error.reason}: ${error.message}`;
    throw error;
  }
  return "no error";
}

describe("readIcoAsPng", () => {
  it("converts a 32-bit bitmap with its own alpha", () => {
    const dib = buildDib(3, 2, 32, (x, y) => [x * 100, y * 200, 7, x === 0 ? 0 : 255]);
    const icon = readIcoAsPng(buildIco([{ width: 3, height: 2, bitCount: 32, data: dib }]));
    expect(icon && [icon.width, icon.height]).toEqual([3, 2]);
    const at = pixels(icon?.png ?? Buffer.alloc(0), 3);
    expect([at(0, 0), at(1, 0), at(2, 1)]).toEqual(["00000700", "640007ff", "c8c807ff"]);
  });

  it("applies the AND mask to 24-bit and to 32-bit bitmaps without alpha", () => {
    for (const bitCount of [24, 32]) {
      const dib = buildDib(2, 2, bitCount, () => [10, 20, 30, 0], { masked: (x, y) => x === 1 && y === 0 });
      const icon = readIcoAsPng(buildIco([{ width: 2, height: 2, bitCount, data: dib }]));
      const at = pixels(icon?.png ?? Buffer.alloc(0), 2);
      expect([at(0, 0), at(1, 0), at(0, 1), at(1, 1)]).toEqual([
        "0a141eff",
        "0a141e00",
        "0a141eff",
        "0a141eff",
      ]);
    }
  });

  it("reads 4-bit palette bitmaps and picks the largest image", () => {
    const palette = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
    ];
    const small = buildDib(2, 2, 4, () => [0], { palette });
    const large = buildDib(5, 4, 4, (x) => [x % 3], { palette });
    const icon = readIcoAsPng(
      buildIco([
        { width: 2, height: 2, bitCount: 4, data: small },
        { width: 5, height: 4, bitCount: 4, data: large },
      ]),
    );
    expect(icon && [icon.width, icon.height]).toEqual([5, 4]);
    const at = pixels(icon?.png ?? Buffer.alloc(0), 5);
    expect([at(0, 3), at(1, 3), at(2, 3), at(3, 0)]).toEqual([
      "ff0000ff",
      "00ff00ff",
      "0000ffff",
      "ff0000ff",
    ]);
  });

  it("passes a PNG image through as it is", () => {
    const png = Buffer.concat([
      Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
      Buffer.from("0000010000000100080600000000000000", "hex"),
    ]);
    const icon = readIcoAsPng(
      buildIco([
        { width: 16, height: 16, bitCount: 32, data: buildDib(16, 16, 32, () => [1, 2, 3, 255]) },
        { width: 0, height: 0, bitCount: 32, data: png },
      ]),
    );
    expect(icon).toEqual({ png, width: 256, height: 256 });
  });

  it("returns null for data that is not an ICO (an .exe icon source)", () => {
    expect(readIcoAsPng(Buffer.from("MZ\u0090\u0000 executable"))).toBeNull();
    expect(readIcoAsPng(buildIco([]))).toBeNull();
  });

  it.each([
    [
      "an image past the end",
      (ico: Buffer) => ico.writeUInt32LE(0x7fffffff, 6 + 12),
      "icon: image 0 lies past the end",
    ],
    ["an RLE bitmap", (ico: Buffer) => ico.writeUInt32LE(1, 22 + 16), "icon: bitmap compression 1"],
    [
      "16 bits per pixel",
      (ico: Buffer) => ico.writeUInt16LE(16, 22 + 14),
      "icon: bitmap of 16 bits per pixel",
    ],
    ["a huge width", (ico: Buffer) => ico.writeInt32LE(0x7fffffff, 22 + 4), "icon: bitmap of 2147483647x2"],
    ["an odd doubled height", (ico: Buffer) => ico.writeInt32LE(3, 22 + 8), "icon: bitmap of 2x1.5"],
  ])("refuses %s", (_label, damage, message) => {
    const ico = buildIco([{ width: 2, height: 2, bitCount: 24, data: buildDib(2, 2, 24, () => [1, 2, 3]) }]);
    damage(ico);
    expect(reasonOf(() => readIcoAsPng(ico))).toBe(`corrupt: ${message}`);
  });

  it("refuses palette indexes past the palette and pixels cut short", () => {
    const dib = buildDib(2, 1, 4, () => [5], { palette: [[0, 0, 0]] });
    expect(reasonOf(() => readIcoAsPng(buildIco([{ width: 2, height: 1, bitCount: 4, data: dib }])))).toBe(
      "corrupt: icon: palette index 5 of 1",
    );
    const short = buildDib(8, 8, 32, () => [0, 0, 0, 255]).subarray(0, 60);
    expect(reasonOf(() => readIcoAsPng(buildIco([{ width: 8, height: 8, bitCount: 32, data: short }])))).toBe(
      "corrupt: icon: bitmap pixels cut short",
    );
  });
});
