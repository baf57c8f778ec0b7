import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The server package's folder (the one holding its package.json), whether this code runs from
 * `src/` under a TypeScript loader or bundled into `dist/`: files that ship beside the code
 * (migrations, the password list, the web build) are found from here, not from the module's
 * own location, which differs between the two.
 */
function findServerRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("the server's package.json was not found above its code");
    dir = parent;
  }
  return dir;
}

export const serverRoot = findServerRoot();

/** A path inside the server package, e.g. serverPath("migrations"). */
export function serverPath(...parts: string[]): string {
  return path.join(serverRoot, ...parts);
}
