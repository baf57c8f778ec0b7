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
const splitMetaData = new Set(["com.android.vending.splits.required", "com.android.vending.splits"]);
const splitAttributes = new Set(["isSplitRequired", "requiredSplitTypes", "splitTypes"]);
/** android:extractNativeLibs. */
const extractNativeLibsId = 0x010104ea;

const androidName = (element: XmlElement) => findAttribute(element, androidNamespace, "name")?.raw;

function application(manifest: XmlElement): XmlElement | undefined {
  return childElements(manifest, "application")[0];
}

/**
 * The universal APK's manifest: the base one with the components of every fused feature added
 * (those the base does not declare already), without split markers (android:splitName,
 * isSplitRequired, the vending splits meta-data) since nothing is split any more.
 */
export function mergeManifests(base: XmlElement, features: XmlElement[]): XmlElement {
  const app = application(base);
  if (app) {
    const declared = new Set(childElements(app).map((child) => `${child.name}:${androidName(child)}`));
    for (const feature of features) {
      for (const child of childElements(application(feature) ?? feature)) {
        const key = `${child.name}:${androidName(child)}`;
        if (!componentNames.has(child.name) || declared.has(key)) continue;
        declared.add(key);
        app.children.push(child);
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
          splitMetaData.has(androidName(child) ?? "")
        ),
    );
    for (const component of childElements(app)) {
      component.attributes = component.attributes.filter(
        (a) => !(a.namespace === androidNamespace && a.name === "splitName"),
      );
    }
  }
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
