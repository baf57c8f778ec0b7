import { execFileSync } from "node:child_process";
import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { readPngSize } from "../../src/android/png.ts";
import { renderSvg } from "../../src/android/render.ts";
import { readJpegSize, scaledPng } from "../../src/image/scaled-png.ts";

/** A wide red banner with a blue right half, drawn as a PNG. */
function banner(width: number, height: number): Buffer {
  const half = width / 2;
  const icon = renderSvg(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect width="${half}" height="${height}" fill="#ff0000"/>` +
      `<rect x="${half}" width="${half}" height="${height}" fill="#0000ff"/></svg>`,
  );
  if (!icon) throw new Error("could not draw the banner");
  return icon.png;
}

/** The RGB colour of one pixel, drawn by resvg into a 1×1 image around that point. */
function pixel(png: Buffer, x: number, y: number): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1">` +
    `<image x="${-x}" y="${-y}" href="data:image/png;base64,${png.toString("base64")}"/></svg>`;
  return Buffer.from(new Resvg(svg).render().pixels).subarray(0, 3).toString("hex");
}

describe("scaledPng", () => {
  it("shrinks a PNG into the box, keeping its proportions", async () => {
    const scaled = await scaledPng(banner(800, 200), { width: 480, height: 96 });
    expect(scaled && { width: scaled.width, height: scaled.height }).toEqual({ width: 384, height: 96 });
    expect(readPngSize(scaled?.png ?? Buffer.alloc(0))).toEqual({ width: 384, height: 96 });
    // The picture is scaled, not cropped: red on the left, blue on the right.
    expect(pixel(scaled?.png ?? Buffer.alloc(0), 10, 48)).toBe("ff0000");
    expect(pixel(scaled?.png ?? Buffer.alloc(0), 374, 48)).toBe("0000ff");
  });

  it("never enlarges a small image", async () => {
    const scaled = await scaledPng(banner(40, 20), { width: 480, height: 96 });
    expect(scaled && [scaled.width, scaled.height]).toEqual([40, 20]);
  });

  it("turns a WebP into a PNG", async () => {
    const webp = execFileSync("cwebp", ["-quiet", "-lossless", "-o", "-", "--", "-"], {
      input: banner(300, 300),
    });
    expect(webp.toString("latin1", 8, 12)).toBe("WEBP");
    const scaled = await scaledPng(webp, { width: 480, height: 96 });
    expect(scaled && [scaled.width, scaled.height]).toEqual([96, 96]);
    expect(pixel(scaled?.png ?? Buffer.alloc(0), 90, 48)).toBe("0000ff");
  });

  it("refuses what is not an image, and images over the pixel budget", async () => {
    expect(await scaledPng(Buffer.from("<svg onload=alert(1)>"), { width: 480, height: 96 })).toBeNull();
    const huge = Buffer.from(banner(10, 10));
    huge.writeUInt32BE(100_000, 16);
    huge.writeUInt32BE(100_000, 20);
    expect(await scaledPng(huge, { width: 480, height: 96 })).toBeNull();
  });
});

describe("readJpegSize", () => {
  it("reads the frame size past other segments", () => {
    const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]);
    const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0x01, 0x2c, 0x02, 0x58, 0x01, 0x01, 0x11, 0x00]);
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.from([0xff, 0xd9])]);
    expect(readJpegSize(jpeg)).toEqual({ width: 600, height: 300 });
    expect(readJpegSize(Buffer.concat([Buffer.from([0xff, 0xd8]), app0]))).toBeNull();
  });
});
