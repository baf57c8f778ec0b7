export { openZip } from "./open-zip.ts";
export type { OpenedZip, ZipArchive, ZipEntry } from "./types.ts";
