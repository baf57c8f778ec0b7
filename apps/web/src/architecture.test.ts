// The web app's layering: a feature folder stands alone and shares only through api/ (data) and
// ui/ (widgets, formatting), and those two never reach back into a feature. Keeping it so lets a
// feature change without touching another one.
import { describe, expect, it } from "vitest";

/** Every source file under src/, keyed "./dir/file.ts", read as text (nothing is executed). */
const SOURCES = import.meta.glob<string>(["./**/*.ts", "./**/*.tsx"], {
  query: "?raw",
  import: "default",
  eager: true,
});

// Static imports and re-exports ("from '…'"), side-effect imports and dynamic import('…').
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;

/** Resolves a relative specifier against the importing file, e.g. "./features/a/x.ts" + "../b/y.ts". */
function resolve(fromFile: string, specifier: string): string {
  const parts = fromFile.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

/** "features/apps/upload/x.ts" → "apps"; null for files outside src/features. */
function featureOf(file: string): string | null {
  const match = /^\.\/features\/([^/]+)\//.exec(file);
  return match?.[1] ?? null;
}

function isSharedLayer(file: string): boolean {
  return file.startsWith("./api/") || file.startsWith("./ui/");
}

/** Every forbidden import as "importer -> imported file". */
function findLayerViolations(sources: Record<string, string>): string[] {
  const violations: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    for (const [, specifier] of text.matchAll(SPECIFIER)) {
      if (!specifier?.startsWith(".")) continue;
      const target = resolve(file, specifier);
      const targetFeature = featureOf(target);
      if (targetFeature === null) continue;
      const ownFeature = featureOf(file);
      const acrossFeatures = ownFeature !== null && ownFeature !== targetFeature;
      if (acrossFeatures || isSharedLayer(file)) violations.push(`${file} -> ${target}`);
    }
  }
  return violations;
}

describe("architecture", () => {
  it("finds the source files it checks", () => {
    expect(Object.keys(SOURCES)).toContain("./features/apps/app-page.tsx");
    expect(Object.keys(SOURCES)).toContain("./api/client.ts");
  });

  it("keeps every feature folder to itself, api/ and ui/", () => {
    expect(findLayerViolations(SOURCES)).toEqual([]);
  });

  it("reports a feature importing another feature, and api/ or ui/ importing a feature", () => {
    const sources = {
      "./features/apps/app-page.tsx": 'import { Tab } from "../organization/tab.tsx";',
      "./features/apps/upload/modal.tsx": 'import { Rules } from "../rules.ts";',
      "./features/public/page.tsx": 'const page = await import("../dashboard/page.tsx");',
      "./api/hooks.ts": 'export { useThing } from "../features/auth/use-thing.ts";',
      "./ui/frame.tsx": 'import "../features/content/styles.css";',
      "./router.tsx": 'const page = import("./features/auth/login-page.tsx");',
    };
    expect(findLayerViolations(sources)).toEqual([
      "./features/apps/app-page.tsx -> ./features/organization/tab.tsx",
      "./features/public/page.tsx -> ./features/dashboard/page.tsx",
      "./api/hooks.ts -> ./features/auth/use-thing.ts",
      "./ui/frame.tsx -> ./features/content/styles.css",
    ]);
  });
});
