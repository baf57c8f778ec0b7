import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import QRCode from "qrcode";

export interface PermanentLinkPdfInput {
  appName: string;
  /** e.g. "iOS", "Android"; printed under the name. */
  platformLabel: string;
  iconPng?: Buffer | null;
  link: string;
  organization: string;
}

// A4 in points.
const pageWidth = 595.28;
const pageHeight = 841.89;
const margin = 56;
const textColor = rgb(0.13, 0.13, 0.16);
const mutedColor = rgb(0.42, 0.42, 0.48);

/**
 * A printable one-page sheet with the app's permanent install link and its QR code, for
 * posting where testers can scan it. Standard Helvetica keeps the file small and needs no font
 * files; characters outside its Latin set are transliterated or replaced.
 */
export async function renderPermanentLinkPdf(input: PermanentLinkPdfInput): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${input.appName} - ${input.platformLabel}`);
  pdf.setCreator("Tarmac");
  const page = pdf.addPage([pageWidth, pageHeight]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const text = (value: string, font: PDFFont) => encodable(value, font);

  let y = pageHeight - margin;
  y = centered(page, text(input.organization, regular), regular, 12, y, mutedColor);
  y -= 32;

  const icon = input.iconPng ? await embedIcon(pdf, input.iconPng) : null;
  if (icon) {
    const size = 96;
    page.drawImage(icon, { x: (pageWidth - size) / 2, y: y - size, width: size, height: size });
    y -= size + 24;
  }
  for (const line of wrap(text(input.appName, bold), bold, 26, pageWidth - 2 * margin).slice(0, 3)) {
    y = centered(page, line, bold, 26, y, textColor);
  }
  y = centered(page, text(input.platformLabel, regular), regular, 14, y - 4, mutedColor);

  const qrSize = 260;
  const qr = await pdf.embedPng(
    await QRCode.toBuffer(input.link, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 780 }),
  );
  y -= 24;
  page.drawImage(qr, { x: (pageWidth - qrSize) / 2, y: y - qrSize, width: qrSize, height: qrSize });
  y -= qrSize + 28;

  y = centered(page, "Scan the code or open the link on your device:", regular, 12, y, mutedColor);
  // URLs are ASCII once percent-encoded; a raw non-Latin path would otherwise print as "?".
  for (const line of wrap(
    text(encodeURI(decodeSafely(input.link)), regular),
    regular,
    12,
    pageWidth - 2 * margin,
    "",
  )) {
    y = centered(page, line, regular, 12, y - 2, textColor);
  }
  return Buffer.from(await pdf.save());
}

async function embedIcon(pdf: PDFDocument, png: Buffer) {
  try {
    return await pdf.embedPng(png);
  } catch {
    // Icons taken from builds may be in Apple's CgBI variant or not PNG at all: print without.
    return null;
  }
}

function centered(page: PDFPage, value: string, font: PDFFont, size: number, top: number, color = textColor) {
  const baseline = top - size;
  page.drawText(value, {
    x: (pageWidth - font.widthOfTextAtSize(value, size)) / 2,
    y: baseline,
    size,
    font,
    color,
  });
  return baseline - size * 0.3;
}

/** Greedy line breaking at `separator` (words) or, with "", at any character (links). */
function wrap(value: string, font: PDFFont, size: number, width: number, separator = " "): string[] {
  const lines: string[] = [];
  let current = "";
  for (const token of separator ? value.split(separator) : [...value]) {
    const candidate = current ? current + separator + token : token;
    if (current && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(current);
      current = token;
    } else current = candidate;
  }
  if (current) lines.push(current);
  return lines;
}

const charsetCache = new WeakMap<PDFFont, Set<number>>();

/** Keeps what the font encodes, strips accents from the rest ("é" -> "e"), and replaces what is left. */
function encodable(value: string, font: PDFFont): string {
  let charset = charsetCache.get(font);
  if (!charset) {
    charset = new Set(font.getCharacterSet());
    charsetCache.set(font, charset);
  }
  const supported = charset;
  const keep = (ch: string) => supported.has(ch.codePointAt(0) ?? 0);
  let out = "";
  for (const ch of value.replace(/[\r\n\t]+/g, " ")) {
    if (keep(ch)) out += ch;
    else {
      const base = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out += base && [...base].every(keep) ? base : "?";
    }
  }
  return out;
}

function decodeSafely(link: string): string {
  try {
    return decodeURI(link);
  } catch {
    return link;
  }
}
