import { describe, expect, it } from "vitest";
import { resolveIcon } from "../../src/android/icon.ts";
import type { ManifestElement, ResValue } from "../../src/android/values.ts";
import { inspectAab } from "../../src/formats/aab.ts";
import { inspectApk } from "../../src/formats/apk.ts";
import { bufferSource } from "../../src/source.ts";
import { decodeRgbaPng } from "../apple/png-pixels.ts";
import { readAndroidFixture } from "./fixture-paths.ts";

type Rgba = [number, number, number, number];

async function iconOf(name: string) {
  const data = await readAndroidFixture(name);
  const read = name.endsWith(".aab") ? inspectAab : inspectApk;
  const info = await read(bufferSource(data), { fileName: name }, name.endsWith(".aab") ? "aab" : "apk");
  if (!info.icon) throw new Error(`${name} has no icon`);
  const image = decodeRgbaPng(info.icon.png);
  expect([image.width, image.height]).toEqual([info.icon.width, info.icon.height]);
  const at = (x: number, y: number): Rgba => {
    const i = (y * image.width + x) * 4;
    return [...image.pixels.subarray(i, i + 4)] as Rgba;
  };
  return { ...image, at };
}

const hex = (color: string, alpha = 255): Rgba => [
  Number.parseInt(color.slice(1, 3), 16),
  Number.parseInt(color.slice(3, 5), 16),
  Number.parseInt(color.slice(5, 7), 16),
  alpha,
];

/** Channels within `tolerance` (lossy WebP and anti-aliasing move colors a little). */
function expectColor(actual: Rgba, expected: Rgba, tolerance = 6) {
  const off = actual.map((value, i) => Math.abs(value - (expected[i] as number)));
  expect(Math.max(...off), `${actual} is not ${expected}`).toBeLessThanOrEqual(tolerance);
}

describe("Android launcher icons", () => {
  // aapt dump badging: application-icon-160:'res/mipmap-mdpi-v4/ic_launcher.webp',
  //   application-icon-640:'res/mipmap-xxxhdpi-v4/ic_launcher.webp'.
  it("converts the sharpest WebP launcher icon (lossy, with alpha) to PNG", async () => {
    const icon = await iconOf("webp.apk");
    expect([icon.width, icon.height]).toEqual([192, 192]);
    expectColor(icon.at(96, 96), hex("#FFFFFF"));
    expectColor(icon.at(96, 30), hex("#2E7D32"));
    expect(icon.at(2, 2)[3]).toBe(0);
  });

  for (const name of ["adaptive-webp.apk", "adaptive-webp.aab"]) {
    it(`composes an adaptive icon of WebP layers, 72 dp of 108 at xxxhdpi, unmasked (${name})`, async () => {
      const icon = await iconOf(name);
      expect([icon.width, icon.height]).toEqual([288, 288]);
      // The lossless foreground's square (36..72 dp) over the lossy background.
      expectColor(icon.at(144, 144), hex("#FFC107"), 0);
      expectColor(icon.at(100, 144), hex("#FFC107"), 0);
      expectColor(icon.at(60, 144), hex("#1565C0"));
      // A plain square: the corners show the background.
      expectColor(icon.at(0, 0), hex("#1565C0"));
      expectColor(icon.at(287, 287), hex("#1565C0"));
    });
  }

  for (const name of ["vector.apk", "vector.aab"]) {
    it(`renders a vector-only adaptive icon over its color background (${name})`, async () => {
      const icon = await iconOf(name);
      expect([icon.width, icon.height]).toEqual([288, 288]);
      expectColor(icon.at(0, 0), hex("#3DDC84"), 0); // background color resource, corners kept
      expectColor(icon.at(144, 144), hex("#073042"), 0); // the rotated square, fill color reference
      expectColor(icon.at(144, 55), hex("#3DDC84"), 0); // beside it, above its top corner
      expectColor(icon.at(144, 48), hex("#FFD600"), 0); // the stroke at y = 30 dp
      expectColor(icon.at(172, 212), hex("#000000"), 0); // even-odd ring
      expectColor(icon.at(192, 232), hex("#3DDC84"), 0); // and its hole
      // The half-transparent white bar of the scaled group: white over green, half and half.
      expectColor(icon.at(100, 245), [158, 238, 194, 255], 2);
      // The inline gradient (a file of its own after aapt2): red at the left, blue at the right.
      expectColor(icon.at(1, 280), hex("#FF0000"), 6);
      expectColor(icon.at(286, 280), hex("#0000FF"), 6);
      expectColor(icon.at(144, 280), [128, 0, 127, 255], 3);
    });

    it(`matches rsvg-convert's rendering of the same picture (${name})`, async () => {
      const icon = await iconOf(name);
      const reference = decodeRgbaPng(await readAndroidFixture("readings/vector.rsvg.png"));
      let total = 0;
      for (let i = 0; i < icon.pixels.length; i++) {
        total += Math.abs((icon.pixels[i] as number) - (reference.pixels[i] as number));
      }
      // Only anti-aliased edges differ between the two renderers.
      expect(total / icon.pixels.length).toBeLessThan(1);
    });
  }

  it("composes an adaptive icon whose foreground is a PNG over a color", async () => {
    const icon = await iconOf("adaptive.apk");
    expect([icon.width, icon.height]).toEqual([288, 288]);
    expectColor(icon.at(144, 144), hex("#E53935"), 0);
    expectColor(icon.at(0, 0), hex("#E53935"), 0);
  });

  it("draws an inset foreground (as Flutter's launcher icon tool writes it) inside its insets", async () => {
    const android = "http://schemas.android.com/apk/res/android";
    const attr = (name: string, value: ResValue) => ({ name, namespace: android, resourceId: 0, value });
    const files: Record<string, ManifestElement> = {
      "res/mipmap-anydpi-v26/ic.xml": {
        name: "adaptive-icon",
        attributes: [],
        children: [
          {
            name: "background",
            attributes: [attr("drawable", { type: "color", argb: 0xffffffff })],
            children: [],
          },
          {
            name: "foreground",
            attributes: [],
            children: [
              {
                name: "inset",
                attributes: [
                  attr("drawable", { type: "color", argb: 0xff000000 }),
                  attr("inset", { type: "fraction", value: 0.25 }),
                ],
                children: [],
              },
            ],
          },
        ],
      },
    };
    const icon = await resolveIcon(
      { type: "string", text: "res/mipmap-anydpi-v26/ic.xml" },
      {
        table: null,
        readFile: async (path) => (path in files ? Buffer.from(path) : null),
        parseXml: (data) => files[data.toString()] as ManifestElement,
      },
    );
    if (!icon) throw new Error("no icon");
    const { pixels } = decodeRgbaPng(icon.png);
    const at = (x: number, y: number) => [...pixels.subarray((y * 288 + x) * 4, (y * 288 + x) * 4 + 3)];
    // The black square covers 27..81 dp of the 108, so 36..252 px of the 72 dp shown.
    expect(at(144, 144)).toEqual([0, 0, 0]);
    expect(at(40, 40)).toEqual([0, 0, 0]);
    expect(at(30, 144)).toEqual([255, 255, 255]);
    expect(at(258, 258)).toEqual([255, 255, 255]);
  });
});
