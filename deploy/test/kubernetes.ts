import path from "node:path";
import { fileURLToPath } from "node:url";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Secret, Service, ServiceAccount } from "kubernetes-models/v1";
import ts from "typescript";
import type { RenderedDocument } from "./render.ts";

/**
 * Checks rendered objects against the Kubernetes API's definitions, as packaged by
 * kubernetes-models (generated from the API's OpenAPI document): its JSON-schema validation
 * (types, required fields, formats), and its TypeScript types for what that validation lets pass,
 * fields the API does not know (a misspelt probe would be dropped by the API server without a word).
 */

interface Kind {
  /** Builds the model, whose validate() throws on the first problem. */
  model: new (
    data: never,
  ) => { validate(): void };
  /** Module and interface of the model's TypeScript type. */
  module: string;
  type: string;
}

const kinds: Record<string, Kind> = {
  "v1/ConfigMap": { model: ConfigMap, module: "kubernetes-models/v1/ConfigMap", type: "IConfigMap" },
  "v1/Secret": { model: Secret, module: "kubernetes-models/v1/Secret", type: "ISecret" },
  "v1/Service": { model: Service, module: "kubernetes-models/v1/Service", type: "IService" },
  "v1/ServiceAccount": {
    model: ServiceAccount,
    module: "kubernetes-models/v1/ServiceAccount",
    type: "IServiceAccount",
  },
  "apps/v1/Deployment": {
    model: Deployment,
    module: "kubernetes-models/apps/v1/Deployment",
    type: "IDeployment",
  },
  "networking.k8s.io/v1/Ingress": {
    model: Ingress,
    module: "kubernetes-models/networking.k8s.io/v1/Ingress",
    type: "IIngress",
  },
  "policy/v1/PodDisruptionBudget": {
    model: PodDisruptionBudget,
    module: "kubernetes-models/policy/v1/PodDisruptionBudget",
    type: "IPodDisruptionBudget",
  },
  "autoscaling/v2/HorizontalPodAutoscaler": {
    model: HorizontalPodAutoscaler,
    module: "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler",
    type: "IHorizontalPodAutoscaler",
  },
};

function kindOf(document: RenderedDocument): Kind {
  const key = `${document.object.apiVersion}/${document.object.kind}`;
  const kind = kinds[key];
  if (kind === undefined) throw new Error(`${document.file}: no model for ${key}`);
  return kind;
}

/** Problems the JSON-schema validation finds, one line per document. */
export function schemaProblems(documents: RenderedDocument[]): string[] {
  const problems: string[] = [];
  for (const document of documents) {
    try {
      new (kindOf(document).model)(document.object as never).validate();
    } catch (error) {
      problems.push(`${document.file} ${document.object.kind}: ${(error as Error).message}`);
    }
  }
  return problems;
}

const deployDir = fileURLToPath(new URL("../", import.meta.url));

/**
 * Problems the type checker finds when each object is written as a literal of its kind's type:
 * TypeScript refuses properties a literal's type does not declare, at any depth. One program for
 * all the objects given, so the types are loaded once.
 */
export function fieldProblems(documents: RenderedDocument[]): string[] {
  const fileName = path.join(deployDir, "test", "rendered-objects.ts");
  const imports = new Set<string>();
  const lines: string[] = [];
  documents.forEach((document, i) => {
    const kind = kindOf(document);
    imports.add(`import type { ${kind.type} } from "${kind.module}";`);
    lines.push(`// ${document.file} ${document.object.kind}`);
    lines.push(`export const object${i}: ${kind.type} = ${JSON.stringify(document.object, null, 1)};`);
  });
  const source = [...imports, ...lines].join("\n");

  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === fileName ? source : readFile(name));
  host.fileExists = (name) => name === fileName || fileExists(name);
  host.getSourceFile = (name, languageVersion, ...rest) =>
    name === fileName
      ? ts.createSourceFile(name, source, languageVersion, true)
      : getSourceFile(name, languageVersion, ...rest);
  const program = ts.createProgram([fileName], options, host);
  const sourceFile = program.getSourceFile(fileName);
  const diagnostics = [
    ...program.getSyntacticDiagnostics(sourceFile),
    ...program.getSemanticDiagnostics(sourceFile),
  ];
  return diagnostics.map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (diagnostic.file === undefined || diagnostic.start === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    // The comment line above the object names the template and kind.
    const sourceLines = source.split("\n");
    let header = line;
    while (header >= 0 && !sourceLines[header]?.startsWith("// ")) header--;
    const where = header >= 0 ? sourceLines[header]?.slice(3) : "imports";
    return `${where}: ${message} (at ${sourceLines[line]?.trim()})`;
  });
}
