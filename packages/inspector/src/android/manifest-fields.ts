import { InspectError } from "../errors.ts";
import {
  androidNamespace,
  attrIds,
  type ConfigValue,
  type ManifestAttribute,
  type ManifestElement,
  type ResourceTable,
  type ResValue,
} from "./values.ts";

const maxReferenceHops = 8;

export interface ManifestFields {
  packageName: string;
  label: string | null;
  labels: Record<string, string>;
  versionName: string | null;
  versionCode: string | null;
  minSdk: string | null;
  targetSdk: number | null;
  compileSdk: number | null;
  permissions: string[];
  features: string[];
  debuggable: boolean;
  /** The application's icon attribute, left for the format to resolve to a PNG. */
  icon: ResValue | null;
}

/** An android: attribute, by resource id when the compiler kept one, else by its name. */
export function findAttribute(
  element: ManifestElement,
  id: number,
  name: string,
): ManifestAttribute | undefined {
  return (
    element.attributes.find((a) => a.resourceId === id) ??
    element.attributes.find(
      (a) => a.name === name && (a.namespace === androidNamespace || a.namespace === ""),
    )
  );
}

/** Picks the value a device with no locale preference would see: a locale-less configuration. */
function pickDefault(values: ConfigValue[]): ConfigValue | undefined {
  return (
    values.find((v) => v.locale === "" && v.density === 0) ?? values.find((v) => v.locale === "") ?? values[0]
  );
}

/** Follows references until a plain value; null when the chain breaks or loops. */
export function resolveValue(value: ResValue | undefined, table: ResourceTable | null): ResValue | null {
  let current = value;
  for (let hop = 0; current && hop <= maxReferenceHops; hop++) {
    if (current.type !== "reference") return current;
    if (!table) return null;
    current = pickDefault(table.lookup(current.id))?.value;
  }
  return null;
}

function asText(value: ResValue | null): string | null {
  if (!value) return null;
  if (value.type === "string") return value.text;
  if (value.type === "int") return String(value.value);
  if (value.type === "bool") return String(value.value);
  return null;
}

function asNumber(value: ResValue | null): number | null {
  if (value?.type === "int") return value.value;
  if (value?.type === "string" && /^\d+$/.test(value.text)) return Number(value.text);
  return null;
}

/** Label per locale: the default under "" and every localized configuration of a referenced string. */
function readLabels(value: ResValue | undefined, table: ResourceTable | null): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!value) return labels;
  if (value.type !== "reference" || !table) {
    const text = asText(resolveValue(value, table));
    if (text !== null) labels[""] = text;
    return labels;
  }
  const configs = table.lookup(value.id);
  const fallback = asText(resolveValue(pickDefault(configs)?.value, table));
  if (fallback !== null) labels[""] = fallback;
  for (const config of configs) {
    if (config.locale === "" || config.locale in labels) continue;
    const text = asText(resolveValue(config.value, table));
    if (text !== null) labels[config.locale] = text;
  }
  return labels;
}

function childNames(root: ManifestElement, tags: string[]): string[] {
  const names: string[] = [];
  for (const child of root.children) {
    if (!tags.includes(child.name)) continue;
    const name = asText(resolveValue(findAttribute(child, attrIds.name, "name")?.value, null));
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** Reads the fields every Android format reports from a parsed manifest and its resource table. */
export function readManifestFields(root: ManifestElement, table: ResourceTable | null): ManifestFields {
  if (root.name !== "manifest")
    throw new InspectError("missing_manifest", "AndroidManifest.xml has no <manifest> root");
  const packageAttr = root.attributes.find((a) => a.name === "package" && a.namespace === "");
  const packageName = asText(resolveValue(packageAttr?.value, null));
  if (!packageName) throw new InspectError("missing_manifest", "AndroidManifest.xml names no package");
  const usesSdk = root.children.find((c) => c.name === "uses-sdk");
  const application = root.children.find((c) => c.name === "application");
  const attr = (element: ManifestElement | undefined, id: number, name: string) =>
    element ? resolveValue(findAttribute(element, id, name)?.value, table) : null;
  const labels = readLabels(application && findAttribute(application, attrIds.label, "label")?.value, table);
  const debuggable = attr(application, attrIds.debuggable, "debuggable");
  const minSdk = attr(usesSdk, attrIds.minSdkVersion, "minSdkVersion");
  const compileSdk =
    asNumber(attr(root, attrIds.compileSdkVersion, "compileSdkVersion")) ??
    asNumber(resolveValue(root.attributes.find((a) => a.name === "platformBuildVersionCode")?.value, table));
  return {
    packageName,
    label: labels[""] ?? null,
    labels,
    versionName: asText(attr(root, attrIds.versionName, "versionName")),
    versionCode: asText(attr(root, attrIds.versionCode, "versionCode")),
    minSdk: asText(minSdk),
    targetSdk: asNumber(attr(usesSdk, attrIds.targetSdkVersion, "targetSdkVersion")),
    compileSdk,
    permissions: childNames(root, ["uses-permission", "uses-permission-sdk-23", "uses-permission-sdk-m"]),
    features: childNames(root, ["uses-feature"]),
    debuggable: debuggable?.type === "bool" && debuggable.value,
    icon: (application && findAttribute(application, attrIds.icon, "icon")?.value) ?? null,
  };
}
