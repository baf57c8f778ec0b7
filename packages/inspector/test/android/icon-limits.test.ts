import { describe, expect, it } from "vitest";
import { type IconContext, resolveIcon } from "../../src/android/icon.ts";
import type { ManifestElement, ResValue } from "../../src/android/values.ts";
import { readWebpSize, webpToIcon } from "../../src/android/webp.ts";
import { limits } from "../../src/limits.ts";
import { bufferSource } from "../../src/source.ts";
import { openZip } from "../../src/zip/index.ts";
import { decodeRgbaPng } from "../apple/png-pixels.ts";
import { readAndroidFixture } from "./fixture-paths.ts";

async function fixtureEntry(apk: string, path: string): Promise<Buffer> {
  const zip = await openZip(bufferSource(await readAndroidFixture(apk)));
  const entry = zip.find(path);
  if (!entry) throw new Error(`${apk} has no ${path}`);
  return zip.read(entry);
}

function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from("WEBP", "latin1"), ...chunks]);
  const head = Buffer.from("RIFF\0\0\0\0", "latin1");
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

function chunk(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 0, "latin1");
  head.writeUInt32LE(payload.length, 4);
  return Buffer.concat([head, payload, Buffer.alloc(payload.length & 1)]);
}

/** A lossless frame header declaring width x height, with no image data after it. */
function vp8l(width: number, height: number): Buffer {
  const payload = Buffer.alloc(16);
  payload[0] = 0x2f;
  payload.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  return chunk("VP8L", payload);
}

const attr = (name: string, value: ResValue) => ({
  name,
  namespace: "http://schemas.android.com/apk/res/android",
  resourceId: 0,
  value,
});
const element = (
  name: string,
  attributes: ManifestElement["attributes"],
  children: ManifestElement[] = [],
) => ({
  name,
  attributes,
  children,
});
const float = (value: number): ResValue => ({ type: "float", value });
const text = (value: string): ResValue => ({ type: "string", text: value });

/** A module whose XML files are these element trees (its files hold their own names). */
function contextOf(files: Record<string, ManifestElement>, reads: string[] = []): IconContext {
  return {
    table: null,
    async readFile(path) {
      reads.push(path);
      return path in files ? Buffer.from(path) : null;
    },
    parseXml: (data) => files[data.toString()] as ManifestElement,
  };
}

function vector(paths: ManifestElement[]): ManifestElement {
  return element("vector", [attr("viewportWidth", float(108)), attr("viewportHeight", float(108))], paths);
}

const path = (data: string) =>
  element("path", [attr("pathData", text(data)), attr("fillColor", { type: "color", argb: 0xff000000 })]);

describe("icon bounds", () => {
  it("reads the declared size of lossy, lossless and extended WebP files", async () => {
    expect(readWebpSize(await fixtureEntry("webp.apk", "res/mipmap-xxxhdpi-v4/ic_launcher.webp"))).toEqual({
      width: 192,
      height: 192,
    });
    expect(
      readWebpSize(
        await fixtureEntry("adaptive-webp.apk", "res/mipmap-xxxhdpi-v4/ic_launcher_foreground.webp"),
      ),
    ).toEqual({ width: 432, height: 432 });
    expect(readWebpSize(riff([vp8l(300, 200)]))).toEqual({ width: 300, height: 200 });
  });

  it("never decodes a WebP past the pixel budget, whatever its chunks declare", async () => {
    const before = process.memoryUsage();
    const huge = [
      riff([vp8l(16384, 16384)]),
      // A small frame inside a canvas that claims 16384 x 16384.
      riff([chunk("VP8X", Buffer.from([0x10, 0, 0, 0, 0xff, 0x3f, 0, 0xff, 0x3f, 0])), vp8l(16, 16)]),
    ];
    for (const file of huge) {
      const started = performance.now();
      expect(await webpToIcon(file)).toBeNull();
      expect(performance.now() - started).toBeLessThan(500);
    }
    const grown = process.memoryUsage().arrayBuffers - before.arrayBuffers;
    expect(grown).toBeLessThan(limits.maxIconBytes);
  });

  it("skips animated, truncated and damaged WebP files instead of failing", async () => {
    const real = await fixtureEntry("webp.apk", "res/mipmap-xxxhdpi-v4/ic_launcher.webp");
    const animated = riff([
      chunk("VP8X", Buffer.from([0x02, 0, 0, 0, 15, 0, 0, 15, 0, 0])),
      chunk("ANIM", Buffer.alloc(6)),
    ]);
    expect(await webpToIcon(animated)).toBeNull();
    expect(await webpToIcon(real.subarray(0, real.length - 40))).toBeNull();
    for (let at = 30; at < real.length; at += 37) {
      const damaged = Buffer.from(real);
      damaged[at] = (damaged[at] as number) ^ 0xff;
      const icon = await webpToIcon(damaged);
      if (icon) expect([icon.width, icon.height]).toEqual([192, 192]);
    }
    expect((await webpToIcon(real))?.width).toBe(192);
  });

  it("draws no vector whose path data is over the budget", async () => {
    const long = `M0,0${" l1,1".repeat(limits.vectorMaxPathBytes / 5 + 1)}z`;
    const files = { "res/drawable/v.xml": vector([path(long)]) };
    expect(await resolveIcon(text("res/drawable/v.xml"), contextOf(files))).toBeNull();
    const many = Array.from({ length: limits.vectorMaxElements + 1 }, () => path("M0,0h1v1z"));
    expect(
      await resolveIcon(text("res/drawable/v.xml"), contextOf({ "res/drawable/v.xml": vector(many) })),
    ).toBeNull();
  });

  it("copies no markup from path data into the picture", async () => {
    const hostile = 'M0,0h108v108z"/><image href="file:///etc/passwd" width="108" height="108';
    const files = { "res/drawable/v.xml": vector([path(hostile), path("M0,0h54v54h-54z")]) };
    const icon = await resolveIcon(text("res/drawable/v.xml"), contextOf(files));
    // The hostile path is dropped, the plain one drawn: a 48 dp vector at xxxhdpi.
    if (!icon) throw new Error("no icon");
    expect([icon.width, icon.height]).toEqual([192, 192]);
    const { pixels } = decodeRgbaPng(icon.png);
    expect(pixels[(40 * 192 + 40) * 4 + 3]).toBe(255);
    expect(pixels[(150 * 192 + 150) * 4 + 3]).toBe(0);
  });

  it("follows drawables that refer to themselves only limits.drawableMaxDepth deep", async () => {
    const reads: string[] = [];
    const loop = element("inset", [attr("drawable", text("res/drawable/loop.xml"))]);
    const files = {
      "res/mipmap-anydpi-v26/ic.xml": element(
        "adaptive-icon",
        [],
        [element("foreground", [attr("drawable", text("res/drawable/loop.xml"))])],
      ),
      "res/drawable/loop.xml": loop,
    };
    expect(await resolveIcon(text("res/mipmap-anydpi-v26/ic.xml"), contextOf(files, reads))).toBeNull();
    expect(reads.length).toBeLessThanOrEqual(2 * limits.drawableMaxDepth + 2);
  });
});
