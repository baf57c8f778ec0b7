export { type CompoundFile, cfbMaxDirectoryEntries, openCompoundFile } from "./compound-file.ts";
export type { CfbEntry, CfbEntryType } from "./directory.ts";
export type { CfbHeader } from "./header.ts";
