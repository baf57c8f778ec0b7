/**
 * MSI packs stream names into CJK code points: two characters of the 64-letter alphabet
 * [0-9A-Za-z._] per code unit in 0x3800..0x47FF, one per unit in 0x4800..0x483F, and a leading
 * 0x4840 marks a database table. Anything else is kept as is ("\u0005SummaryInformation").
 */
const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz._";
const tableMarker = 0x4840;

export interface MsiStreamName {
  name: string;
  isTable: boolean;
}

export function decodeMsiStreamName(stored: string): MsiStreamName {
  let index = 0;
  const isTable = stored.charCodeAt(0) === tableMarker;
  if (isTable) index = 1;
  let name = "";
  for (; index < stored.length; index++) {
    const code = stored.charCodeAt(index);
    if (code >= 0x3800 && code < 0x4800) {
      const packed = code - 0x3800;
      name += (alphabet[packed & 0x3f] as string) + (alphabet[(packed >> 6) & 0x3f] as string);
    } else if (code >= 0x4800 && code < tableMarker) {
      name += alphabet[code - 0x4800] as string;
    } else {
      name += stored[index];
    }
  }
  return { name, isTable };
}
