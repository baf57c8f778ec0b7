import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPermanentLinkPdf } from "./permanent-link-pdf.ts";

// pdftotext comes from poppler-utils, which CI installs; elsewhere the text checks are skipped.
const hasPdftotext = spawnSync("pdftotext", ["-v"]).error === undefined;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "tarmac-pdf-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function textOf(pdf: Buffer): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

const link = "https://tarmac.example.com/getapp/?key=Ab3dEf9h&org=acme";

describe("renderPermanentLinkPdf", () => {
  it("renders one A4 page with the icon and the QR code", async () => {
    const icon = await QRCode.toBuffer("icon", { type: "png", width: 64 });
    const pdf = await renderPermanentLinkPdf({
      appName: "Field Notes",
      platformLabel: "iOS",
      iconPng: icon,
      link,
      organization: "Acme & Co",
    });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    // Two images: the icon and the QR code.
    expect(pdf.toString("latin1").match(/\/Subtype\s*\/Image/g)).toHaveLength(2);
  });

  it.skipIf(!hasPdftotext)("shows the app name, platform, organization and link as text", async () => {
    const text = textOf(
      await renderPermanentLinkPdf({
        appName: "Field Notes",
        platformLabel: "Android",
        link,
        organization: "Acme",
      }),
    );
    expect(text).toContain("Field Notes");
    expect(text).toContain("Android");
    expect(text).toContain("Acme");
    expect(text).toContain(link);
  });

  it.skipIf(!hasPdftotext)("replaces what Helvetica cannot encode and wraps a long link", async () => {
    const longLink = `https://tarmac.example.com/getapp/?key=${"k".repeat(150)}&n=Приложение`;
    const text = textOf(
      await renderPermanentLinkPdf({
        appName: "Café Приложение 🚀",
        platformLabel: "macOS",
        link: longLink,
        organization: "Zoë’s Ltd",
      }),
    );
    expect(text).toContain("Café ?????????? ?");
    expect(text).toContain("Zoë’s Ltd");
    const joined = text.replace(/\s+/g, "");
    expect(joined).toContain(encodeURI(longLink));
  });

  it("prints without the icon when it is not a readable PNG", async () => {
    const pdf = await renderPermanentLinkPdf({
      appName: "App",
      platformLabel: "iOS",
      iconPng: Buffer.from("not a png"),
      link,
      organization: "Acme",
    });
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    expect(pdf.toString("latin1").match(/\/Subtype\s*\/Image/g)).toHaveLength(1);
  });
});
