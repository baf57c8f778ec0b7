import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as executeTemplate } from "@evertdespiegeleer/go-template";
import YAML from "yaml";

/**
 * Renders the chart the way `helm template` does, with Go's own text/template (compiled to
 * WebAssembly): each file of templates/ is parsed together with _helpers.tpl and executed on
 * Helm's top-level objects. The engine runs with missingkey=error, like `helm lint --strict`, so a
 * template that reads a key the values lack fails here instead of printing nothing.
 */

export const chartDir = fileURLToPath(new URL("../helm/tarmac/", import.meta.url));

export type Values = { [key: string]: unknown };

export interface RenderedDocument {
  file: string;
  object: { apiVersion: string; kind: string; metadata: { name: string; [key: string]: unknown } } & Values;
}

export interface Rendered {
  /** Each template's text, as Helm would write it (before dropping empty documents). */
  files: Map<string, string>;
  documents: RenderedDocument[];
  notes: string;
}

const chartYaml = YAML.parse(readFileSync(path.join(chartDir, "Chart.yaml"), "utf8")) as Values;
export const chartMetadata = chartYaml;
export const defaultValues = YAML.parse(readFileSync(path.join(chartDir, "values.yaml"), "utf8")) as Values;
export const helpers = readFileSync(path.join(chartDir, "templates", "_helpers.tpl"), "utf8");
export const templateFiles = readdirSync(path.join(chartDir, "templates"))
  .filter((name) => !name.startsWith("_"))
  .sort();

function isMap(value: unknown): value is Values {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Helm's merge of user values over the chart's: maps merge key by key, anything else replaces,
 * and null deletes the key.
 */
export function mergeValues(base: Values, override: Values): Values {
  const merged: Values = structuredClone(base);
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key];
    if (value === null) delete merged[key];
    else if (isMap(current) && isMap(value)) merged[key] = mergeValues(current, value);
    else merged[key] = structuredClone(value);
  }
  return merged;
}

/** Helm's `.Chart`: the metadata fields under their Go names. */
function chartObject(): Values {
  return {
    APIVersion: chartYaml.apiVersion,
    Name: chartYaml.name,
    Version: chartYaml.version,
    AppVersion: chartYaml.appVersion,
    Description: chartYaml.description,
    Type: chartYaml.type,
    KubeVersion: chartYaml.kubeVersion,
    Keywords: chartYaml.keywords,
  };
}

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
}

async function renderFile(file: string, values: Values, options: RenderOptions): Promise<string> {
  const body = readFileSync(path.join(chartDir, "templates", file), "utf8");
  const context = {
    Values: values,
    Release: {
      Name: options.releaseName ?? "shipyard",
      Namespace: options.namespace ?? "apps",
      Service: "Helm",
      IsInstall: true,
      IsUpgrade: false,
      Revision: 1,
    },
    Chart: chartObject(),
    Capabilities: { KubeVersion: { Version: "v1.30.0", Major: "1", Minor: "30" } },
    Template: { Name: `tarmac/templates/${file}`, BasePath: "tarmac/templates" },
  };
  return execute(helpers + body, context);
}

/**
 * The package's `parse`, with Go's whole error text when execution fails: the package keeps only
 * errors raised in the top template and drops those from a defined one (most of the chart's).
 */
async function execute(template: string, data: unknown): Promise<string> {
  try {
    return await executeTemplate(template, data);
  } catch (error) {
    const render = (globalThis as { Render?: (template: string, json: string) => string }).Render;
    if (render === undefined) throw error;
    throw new Error(render(template, JSON.stringify(data)));
  }
}

/** Renders every template with values.yaml merged with `overrides`. */
export async function renderChart(overrides: Values, options: RenderOptions = {}): Promise<Rendered> {
  const values = mergeValues(defaultValues, overrides);
  const files = new Map<string, string>();
  const documents: RenderedDocument[] = [];
  let notes = "";
  // One at a time: the WebAssembly module renders synchronously on a single instance anyway.
  for (const file of templateFiles) {
    const text = await renderFile(file, values, options);
    files.set(file, text);
    if (file === "NOTES.txt") {
      notes = text;
      continue;
    }
    // YAML 1.1 as Helm's parser (go-yaml) reads it; duplicate keys are errors, as for the API server.
    for (const document of YAML.parseAllDocuments(text, { version: "1.1", uniqueKeys: true })) {
      const problems = [...document.errors, ...document.warnings];
      if (problems.length > 0) {
        throw new Error(`${file}: ${problems.map((problem) => problem.message).join("; ")}\n${text}`);
      }
      const object = document.toJS() as RenderedDocument["object"] | null;
      // Helm drops documents that hold nothing (a template whose condition is false).
      if (object !== null && object !== undefined) documents.push({ file, object });
    }
  }
  return { files, documents, notes };
}

/** Renders `_helpers.tpl` on its own: Helm never prints it, and it must add nothing to the files it joins. */
export async function renderHelpersAlone(values: Values): Promise<string> {
  return execute(helpers, { Values: values, Release: {}, Chart: chartObject() });
}

/** The one document of a kind (and optionally a name suffix), or an error naming what was there. */
export function findDocument(rendered: Rendered, kind: string, nameSuffix = ""): RenderedDocument["object"] {
  const found = rendered.documents.filter(
    (document) => document.object.kind === kind && document.object.metadata.name.endsWith(nameSuffix),
  );
  if (found.length !== 1) {
    const present = rendered.documents.map(
      (document) => `${document.object.kind}/${document.object.metadata.name}`,
    );
    throw new Error(`expected one ${kind} *${nameSuffix}, found ${found.length} among ${present.join(", ")}`);
  }
  return (found[0] as RenderedDocument).object;
}
