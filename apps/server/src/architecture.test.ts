import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The house rules, checked on the source text: one owner per table, no cycles between modules,
 * routes -> service -> repo, and infrastructure that never reaches into a feature module.
 */
const srcDir = path.dirname(fileURLToPath(import.meta.url));

interface SourceFile {
  /** Path relative to src/, with forward slashes. */
  file: string;
  text: string;
  /** Relative imports, resolved to paths relative to src/. */
  imports: string[];
}

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return listSources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const importPattern =
  /(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"|import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;

export function readSources(root: string): SourceFile[] {
  return listSources(root).map((full) => {
    const text = readFileSync(full, "utf8");
    const imports = [...text.matchAll(importPattern)].map((match) =>
      path
        .relative(root, path.resolve(path.dirname(full), match[1] ?? match[2] ?? ""))
        .split(path.sep)
        .join("/"),
    );
    return { file: path.relative(root, full).split(path.sep).join("/"), text, imports };
  });
}

/** The module folder a path belongs to, or null outside src/modules/. */
export function moduleOf(file: string): string | null {
  const match = /^modules\/([^/]+)\//.exec(file);
  return match?.[1] ?? null;
}

/** Imports into another module's repo or tables: only that module may query its tables. */
export function ownershipViolations(sources: SourceFile[]): string[] {
  return sources.flatMap(({ file, imports }) => {
    const own = moduleOf(file);
    if (!own) return [];
    return imports
      .filter((target) => {
        const other = moduleOf(target);
        if (!other || other === own) return false;
        // A foreign key is a declaration, not a query: tables may name the tables they point at.
        if (target.endsWith(".tables.ts")) return !file.endsWith(".tables.ts");
        return target.endsWith(".repo.ts");
      })
      .map((target) => `${file} -> ${target}`);
  });
}

/** Every cycle in the graph of module-to-module imports (type imports included). */
export function moduleCycles(sources: SourceFile[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { file, imports } of sources) {
    const from = moduleOf(file);
    if (!from) continue;
    for (const target of imports) {
      const to = moduleOf(target);
      if (to && to !== from) edges.set(from, new Set([...(edges.get(from) ?? []), to]));
    }
  }
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    trail.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === "open") cycles.push([...trail.slice(trail.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(node, "done");
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

const sources = readSources(srcDir);

describe("the house rules", () => {
  it("lets only a table's owning module query it", () => {
    expect(ownershipViolations(sources)).toEqual([]);
  });

  it("declares tables only in *.tables.ts files", () => {
    const declaring = sources.filter(({ text }) => /\bpgTable\(/.test(text)).map(({ file }) => file);
    expect(declaring.filter((file) => !file.endsWith(".tables.ts"))).toEqual([]);
  });

  it("has no cycle between modules", () => {
    expect(moduleCycles(sources)).toEqual([]);
  });

  it("keeps routes off the database and services off HTTP", () => {
    const routesTouchingData = sources.filter(
      ({ file, imports }) =>
        file.endsWith(".routes.ts") &&
        imports.some((target) => /\.(repo|tables)\.ts$|platform\/db\//.test(target)),
    );
    const servicesOnFastify = sources.filter(
      ({ file, text }) => file.endsWith(".service.ts") && /from\s+"fastify"/.test(text),
    );
    expect(routesTouchingData.map(({ file }) => file)).toEqual([]);
    expect(servicesOnFastify.map(({ file }) => file)).toEqual([]);
  });

  it("keeps infrastructure (platform/, http/) out of feature modules", () => {
    const reaching = sources.filter(
      ({ file, imports }) =>
        /^(platform|http)\//.test(file) && imports.some((target) => target.startsWith("modules/")),
    );
    expect(reaching.map(({ file }) => file)).toEqual([]);
  });

  it("keeps app.ts a list of modules (under 120 lines)", () => {
    const app = sources.find(({ file }) => file === "app.ts");
    expect(app?.text.split("\n").length).toBeLessThan(120);
  });

  it("catches what it is meant to catch", () => {
    const fake = (file: string, imports: string[]): SourceFile => ({ file, text: "", imports });
    const planted = [
      fake("modules/a/a.service.ts", ["modules/b/b.repo.ts", "modules/b/b.tables.ts"]),
      fake("modules/a/a.tables.ts", ["modules/b/b.tables.ts"]),
      fake("modules/b/b.service.ts", ["modules/a/a.service.ts"]),
    ];
    expect(ownershipViolations(planted)).toEqual([
      "modules/a/a.service.ts -> modules/b/b.repo.ts",
      "modules/a/a.service.ts -> modules/b/b.tables.ts",
    ]);
    expect(moduleCycles(planted)).toEqual([["a", "b", "a"]]);
  });
});
