import { resType } from "./res-value.ts";
import {
  androidNamespace,
  childElements,
  distNamespace,
  findAttribute,
  type XmlAttribute,
  type XmlElement,
} from "./xml-tree.ts";

/** Top-level folders of a bundle that are not modules. */
const notModules = new Set(["META-INF", "BUNDLE-METADATA"]);

export interface BundleModule {
  name: string;
  manifest: XmlElement;
}

/** Module names: every top-level folder holding manifest/AndroidManifest.xml. */
export function moduleNames(entryNames: readonly string[]): string[] {
  const names = new Set<string>();
  for (const name of entryNames) {
    const match = /^([^/]+)\/manifest\/AndroidManifest\.xml$/.exec(name);
    if (match?.[1] && !notModules.has(match[1])) names.add(match[1]);
  }
  return [...names].sort((a, b) => (a === "base" ? -1 : b === "base" ? 1 : a < b ? -1 : 1));
}

function boolAttribute(
  element: XmlElement | undefined,
  namespace: string,
  name: string,
): boolean | undefined {
  const attribute = element && findAttribute(element, namespace, name);
  if (!attribute) return undefined;
  if (attribute.value?.kind === "plain" && attribute.value.dataType === resType.intBoolean)
    return attribute.value.data !== 0;
  return attribute.raw === "true";
}

/**
 * Whether bundletool's universal mode fuses a module into the APK: `<dist:fusing dist:include>`
 * decides when present; otherwise modules delivered at install time (unconditionally) go in and
 * on-demand or fast-follow ones stay out. A module without `<dist:module>` is install-time.
 */
export function isFused(manifest: XmlElement): boolean {
  const module = childElements(manifest, "module").find((m) => m.namespace === distNamespace);
  if (!module) return true;
  const fusing = childElements(module, "fusing")[0];
  const include = boolAttribute(fusing, distNamespace, "include");
  if (include !== undefined) return include;
  const delivery = childElements(module, "delivery")[0];
  if (delivery) {
    const installTime = childElements(delivery, "install-time")[0];
    return installTime !== undefined && childElements(installTime, "conditions").length === 0;
  }
  const onDemand = boolAttribute(module, distNamespace, "onDemand");
  return onDemand !== true;
}

const componentNames = new Set(["activity", "activity-alias", "service", "receiver", "provider"]);
const splitsRequiredMetaData = "com.android.vending.splits.required";
/** Play Feature Delivery reads the fused modules from this meta-data to know they are installed. */
const fusedModulesMetaData = "com.android.dynamic.apk.fused.modules";
const splitAttributes = new Set(["isSplitRequired", "requiredSplitTypes", "splitTypes"]);
/** android:extractNativeLibs, android:name, android:value. */
const extractNativeLibsId = 0x010104ea;
const nameId = 0x01010003;
const valueId = 0x01010024;

const androidName = (element: XmlElement) => findAttribute(element, androidNamespace, "name")?.raw;
const componentKey = (element: XmlElement) => `${element.name}:${androidName(element)}`;

function application(manifest: XmlElement): XmlElement | undefined {
  return childElements(manifest, "application")[0];
}

function stringAttribute(name: string, resourceId: number, text: string): XmlAttribute {
  return { namespace: androidNamespace, name, resourceId, raw: text, value: { kind: "string", text } };
}

/**
 * The universal APK's manifest, as bundletool fuses it: the components of every fused feature
 * replace the base's declaration of the same component (the feature's own copy resolves its
 * resources right) or are added; split markers go (android:splitName, isSplitRequired, the
 * splits-required meta-data), since nothing is split any more; and the fused module names are
 * recorded for Play Feature Delivery.
 */
export function mergeManifests(base: XmlElement, features: XmlElement[], fusedModules: string[]): XmlElement {
  let app = application(base);
  if (!app) {
    app = {
      kind: "element",
      namespaces: [],
      namespace: "",
      name: "application",
      attributes: [],
      children: [],
      line: 0,
    };
    base.children.push(app);
  }
  for (const feature of features) {
    for (const component of childElements(application(feature) ?? feature)) {
      if (!componentNames.has(component.name)) continue;
      const at = app.children.findIndex(
        (c) => c.kind === "element" && componentKey(c) === componentKey(component),
      );
      if (at >= 0) app.children[at] = component;
      else app.children.push(component);
    }
  }
  app.attributes = app.attributes.filter(
    (a) => !(a.namespace === androidNamespace && splitAttributes.has(a.name)),
  );
  app.children = app.children.filter(
    (child) =>
      !(
        child.kind === "element" &&
        child.name === "meta-data" &&
        [splitsRequiredMetaData, fusedModulesMetaData].includes(androidName(child) ?? "")
      ),
  );
  for (const component of childElements(app)) {
    if (componentNames.has(component.name))
      component.attributes = component.attributes.filter(
        (a) => !(a.namespace === androidNamespace && a.name === "splitName"),
      );
  }
  app.children.push({
    kind: "element",
    namespaces: [],
    namespace: "",
    name: "meta-data",
    attributes: [
      stringAttribute("name", nameId, fusedModulesMetaData),
      stringAttribute("value", valueId, [...new Set(fusedModules)].sort().join(",")),
    ],
    children: [],
    line: 0,
  });
  base.attributes = base.attributes.filter(
    (a) => !(a.namespace === androidNamespace && splitAttributes.has(a.name)),
  );
  return base;
}

/** android:extractNativeLibs of <application>: true, false, or undefined when not set. */
export function extractNativeLibs(manifest: XmlElement): boolean | undefined {
  return boolAttribute(application(manifest), androidNamespace, "extractNativeLibs");
}

/** Sets android:extractNativeLibs="false", which keeps stored native libraries in the APK, mapped from there. */
export function keepNativeLibrariesInApk(manifest: XmlElement): void {
  const app = application(manifest);
  if (!app || extractNativeLibs(manifest) !== undefined) return;
  const attribute: XmlAttribute = {
    namespace: androidNamespace,
    name: "extractNativeLibs",
    resourceId: extractNativeLibsId,
    raw: "false",
    value: { kind: "plain", dataType: resType.intBoolean, data: 0 },
  };
  app.attributes.push(attribute);
}

/** The manifest's minSdkVersion (1 when it names none, as Android reads it). */
export function minSdkVersion(manifest: XmlElement): number {
  const usesSdk = childElements(manifest, "uses-sdk")[0];
  const attribute = usesSdk && findAttribute(usesSdk, androidNamespace, "minSdkVersion");
  if (!attribute) return 1;
  if (attribute.value?.kind === "plain" && attribute.value.dataType === resType.intDec)
    return attribute.value.data;
  const parsed = Number.parseInt(attribute.raw, 10);
  return Number.isFinite(parsed) ? parsed : 1;
}
