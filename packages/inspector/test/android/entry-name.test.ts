import { describe, expect, it } from "vitest";
import { InspectError } from "../../src/errors.ts";
import { bufferSource } from "../../src/source.ts";
import { isNormalAsciiName, normalizeEntryName } from "../../src/zip/entry-name.ts";
import { openZip } from "../../src/zip/index.ts";
import { buildZip } from "./zip-builder.ts";

/** What the full normalization makes of a name: the normalized text, null, or the refusal reason. */
function slowPath(name: string): string | null {
  try {
    return normalizeEntryName(Buffer.from(name, "utf8"));
  } catch (error) {
    return `!${(error as InspectError).reason}`;
  }
}

const isPlainAscii = (name: string) =>
  [...name].every((char) => char.charCodeAt(0) > 0 && char.charCodeAt(0) < 0x80);

const names = [
  "a",
  "a.txt",
  "dir/",
  "Payload/X.app/Info.plist",
  "Payload/X.app/AppIcon83.5x83.5@2x~ipad.png",
  ".hidden/.a",
  "a..b/c...d",
  "x:y",
  "ab:c",
  "1:2",
  "",
  "/",
  "/etc/passwd",
  "./a",
  "a/./b",
  "a/.",
  "a//b",
  "a//",
  "//a",
  "..",
  "../a",
  "a/..",
  "a/../b",
  "a\\b",
  "C:\\x",
  "c:/x",
  "ok\u0000.txt",
  "caf\u00e9/menu.txt",
  "\ufeffbom.txt",
];

describe("isNormalAsciiName", () => {
  it.each(names)("agrees with the full normalization on %j", (name) => {
    const bytes = Buffer.from(`##${name}##`, "utf8");
    const fast = isNormalAsciiName(bytes, 2, bytes.length - 2);
    const slow = slowPath(name);
    // The shortcut may only accept a name the full path keeps exactly as it is.
    if (fast) expect(slow).toBe(name);
    else expect(slow === name && isPlainAscii(name) && !name.includes("\\")).toBe(false);
  });

  it("accepts the plain names that make up nearly every archive", () => {
    const accepted = names.filter((name) => {
      const bytes = Buffer.from(name, "utf8");
      return isNormalAsciiName(bytes, 0, bytes.length);
    });
    expect(accepted).toEqual([
      "a",
      "a.txt",
      "dir/",
      "Payload/X.app/Info.plist",
      "Payload/X.app/AppIcon83.5x83.5@2x~ipad.png",
      ".hidden/.a",
      "a..b/c...d",
      "ab:c",
      "1:2",
    ]);
  });
});

describe("entry names in a large central directory", () => {
  const filler = Array.from({ length: 3000 }, (_, i) => ({
    name: `Payload/X.app/Frameworks/F${i % 20}.framework/Headers/H${i}.h`,
    data: Buffer.from(`h${i}`),
  }));

  it.each(["Payload/X.app/../../evil", "Payload\\X.app\\..\\..\\evil", "/Payload/X.app/x"])(
    "refuses %j after thousands of plain names",
    async (name) => {
      const zip = openZip(bufferSource(buildZip([...filler, { name, data: Buffer.from("x") }])));
      await expect(zip).rejects.toMatchObject({ reason: "unsafe_entry" });
      await expect(zip).rejects.toBeInstanceOf(InspectError);
    },
  );

  it("refuses two entries with one name, also when they differ only by a ./ prefix", async () => {
    const zip = (second: string) =>
      openZip(
        bufferSource(
          buildZip([
            ...filler.slice(0, 10),
            { name: "dup.txt", data: Buffer.from("first") },
            { name: second, data: Buffer.from("second") },
          ]),
        ),
      );
    await expect(zip("./dup.txt")).rejects.toMatchObject({
      reason: "corrupt",
      message: "duplicate zip entry name: dup.txt",
    });
    await expect(zip("dup.txt")).rejects.toMatchObject({ reason: "corrupt" });
    const fine = await zip("other.txt");
    expect(
      (await fine.read(fine.find("dup.txt") as NonNullable<ReturnType<typeof fine.find>>)).toString(),
    ).toBe("first");
    expect(fine.find("missing.txt")).toBeUndefined();
  });
});
