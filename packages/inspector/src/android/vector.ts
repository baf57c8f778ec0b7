import { findAttribute } from "./manifest-fields.ts";
import type { ManifestElement, ResValue } from "./values.ts";

/**
 * Android vector drawables (<vector> with <group>, <path> and <clip-path>) as SVG markup in the
 * vector's viewport coordinates, for a renderer to draw. Only what the drawable declares reaches
 * the SVG: numbers are formatted here, colors come from the paint resolver, path data must be
 * made of path characters only, and every id is generated, so no file text is copied as markup.
 */

const attr = {
  width: 0x01010159,
  height: 0x01010155,
  viewportWidth: 0x01010402,
  viewportHeight: 0x01010403,
  alpha: 0x0101031f,
  name: 0x01010003,
  pivotX: 0x010101b5,
  pivotY: 0x010101b6,
  rotation: 0x01010326,
  scaleX: 0x01010324,
  scaleY: 0x01010325,
  translateX: 0x0101045a,
  translateY: 0x0101045b,
  pathData: 0x01010405,
  fillColor: 0x01010404,
  fillAlpha: 0x010104cc,
  fillType: 0x0101051e,
  strokeColor: 0x01010406,
  strokeWidth: 0x01010407,
  strokeAlpha: 0x010104cb,
  strokeLineCap: 0x0101040b,
  strokeLineJoin: 0x0101040c,
  strokeMiterLimit: 0x0101040d,
} as const;

/** A fill or stroke: an SVG paint ("#rrggbb", "url(#id)") and its opacity. */
export interface Paint {
  value: string;
  opacity: number;
}

export type PaintResolver = (value: ResValue | undefined) => Promise<Paint | null>;

/** What is left of an icon's allowance for vector work (limits.vectorMaxPathBytes, vectorMaxElements). */
export interface VectorBudget {
  pathBytes: number;
  elements: number;
}

/** The shared <defs> of one SVG document: clip paths and gradients, under generated ids. */
export class SvgDefs {
  private count = 0;
  readonly parts: string[] = [];

  add(markup: (id: string) => string): string {
    const id = `d${this.count++}`;
    this.parts.push(markup(id));
    return id;
  }
}

export interface VectorImage {
  /** Intrinsic size in dp (0 when not given in dp). */
  width: number;
  height: number;
  viewportWidth: number;
  viewportHeight: number;
  /** SVG elements in viewport coordinates. */
  body: string;
}

const pathCharacters = /^[MmZzLlHhVvCcSsQqTtAaEe0-9.,+\-\s]*$/;

/** A finite number as SVG text, or null. */
export function svgNumber(value: number): string | null {
  return Number.isFinite(value) ? String(Math.round(value * 1e5) / 1e5) : null;
}

function numberOf(value: ResValue | undefined): number | null {
  if (!value) return null;
  if (value.type === "float" || value.type === "int" || value.type === "dimension") return value.value;
  if (value.type === "string" && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value.text))
    return Number(value.text);
  return null;
}

function numberAttr(element: ManifestElement, id: number, name: string, fallback: number): number {
  const value = numberOf(findAttribute(element, id, name)?.value);
  return value !== null && Number.isFinite(value) ? value : fallback;
}

function textAttr(element: ManifestElement, id: number, name: string): string | null {
  const value = findAttribute(element, id, name)?.value;
  return value?.type === "string" ? value.text : null;
}

/** An enum attribute, compiled to an int or left as its name. */
function enumAttr(element: ManifestElement, id: number, name: string, names: string[]): number {
  const value = findAttribute(element, id, name)?.value;
  if (value?.type === "int") return value.value;
  if (value?.type === "string") return Math.max(0, names.indexOf(value.text));
  return 0;
}

/** Android's group matrix: about the pivot, scale then rotate, then translate. */
function groupTransform(group: ManifestElement): string {
  const n = (id: number, name: string, fallback: number) => numberAttr(group, id, name, fallback);
  const px = n(attr.pivotX, "pivotX", 0);
  const py = n(attr.pivotY, "pivotY", 0);
  const parts = [
    `translate(${svgNumber(n(attr.translateX, "translateX", 0) + px)} ${svgNumber(n(attr.translateY, "translateY", 0) + py)})`,
    `rotate(${svgNumber(n(attr.rotation, "rotation", 0))})`,
    `scale(${svgNumber(n(attr.scaleX, "scaleX", 1))} ${svgNumber(n(attr.scaleY, "scaleY", 1))})`,
    `translate(${svgNumber(-px)} ${svgNumber(-py)})`,
  ];
  return parts.some((part) => part.includes("null")) ? "" : parts.join(" ");
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/** Clip paths open at once in one group list; each one nests the siblings after it. */
const maxOpenClips = 64;

class VectorWriter {
  private openClips = 0;

  constructor(
    private readonly resolvePaint: PaintResolver,
    private readonly defs: SvgDefs,
    private readonly budget: VectorBudget,
  ) {}

  /** Path data checked against the budget and the path alphabet; null when it may not be drawn. */
  private pathData(element: ManifestElement): string | null {
    const data = textAttr(element, attr.pathData, "pathData");
    if (!data || !pathCharacters.test(data)) return null;
    this.budget.pathBytes -= data.length;
    return this.budget.pathBytes < 0 ? null : data;
  }

  private async paintAttributes(
    element: ManifestElement,
    kind: "fill" | "stroke",
    colorId: number,
    alphaId: number,
  ): Promise<string[]> {
    const paint = await this.resolvePaint(findAttribute(element, colorId, `${kind}Color`)?.value);
    if (!paint) return [`${kind}="none"`];
    const opacity = clamp01(paint.opacity * numberAttr(element, alphaId, `${kind}Alpha`, 1));
    return [`${kind}="${paint.value}"`, `${kind}-opacity="${svgNumber(opacity)}"`];
  }

  private async path(element: ManifestElement): Promise<string> {
    const d = this.pathData(element);
    if (d === null) return "";
    const parts = [`d="${d}"`];
    parts.push(...(await this.paintAttributes(element, "fill", attr.fillColor, attr.fillAlpha)));
    if (enumAttr(element, attr.fillType, "fillType", ["nonZero", "evenOdd"]) === 1)
      parts.push('fill-rule="evenodd"');
    const stroke = await this.paintAttributes(element, "stroke", attr.strokeColor, attr.strokeAlpha);
    const width = numberAttr(element, attr.strokeWidth, "strokeWidth", 0);
    if (stroke[0] !== 'stroke="none"' && width > 0) {
      parts.push(...stroke, `stroke-width="${svgNumber(width)}"`);
      const cap = ["butt", "round", "square"][
        enumAttr(element, attr.strokeLineCap, "strokeLineCap", ["butt", "round", "square"])
      ];
      const join = ["miter", "round", "bevel"][
        enumAttr(element, attr.strokeLineJoin, "strokeLineJoin", ["miter", "round", "bevel"])
      ];
      parts.push(`stroke-linecap="${cap ?? "butt"}"`, `stroke-linejoin="${join ?? "miter"}"`);
      parts.push(
        `stroke-miterlimit="${svgNumber(Math.max(1, numberAttr(element, attr.strokeMiterLimit, "strokeMiterLimit", 4)))}"`,
      );
    }
    return `<path ${parts.join(" ")}/>`;
  }

  /** Children from `start` on; each <clip-path> clips the siblings after it, as Android draws them. */
  async children(children: ManifestElement[], start = 0): Promise<string> {
    let out = "";
    for (let i = start; i < children.length; i++) {
      const child = children[i] as ManifestElement;
      if (--this.budget.elements < 0) return out;
      if (child.name === "path") out += await this.path(child);
      else if (child.name === "group") {
        const transform = groupTransform(child);
        const inner = await this.children(child.children);
        if (transform) out += `<g transform="${transform}">${inner}</g>`;
      } else if (child.name === "clip-path") {
        const d = this.pathData(child);
        if (d === null || this.openClips >= maxOpenClips) return out;
        const id = this.defs.add((clipId) => `<clipPath id="${clipId}"><path d="${d}"/></clipPath>`);
        this.openClips++;
        const clipped = await this.children(children, i + 1);
        this.openClips--;
        return `${out}<g clip-path="url(#${id})">${clipped}</g>`;
      }
    }
    return out;
  }
}

/** A <vector> element as SVG markup, or null when it has no usable viewport or is over budget. */
export async function vectorToSvg(
  root: ManifestElement,
  resolvePaint: PaintResolver,
  defs: SvgDefs,
  budget: VectorBudget,
): Promise<VectorImage | null> {
  if (root.name !== "vector") return null;
  const viewportWidth = numberAttr(root, attr.viewportWidth, "viewportWidth", 0);
  const viewportHeight = numberAttr(root, attr.viewportHeight, "viewportHeight", 0);
  if (!(viewportWidth > 0 && viewportHeight > 0)) return null;
  const dp = (id: number, name: string) => {
    const value = findAttribute(root, id, name)?.value;
    return value?.type === "dimension" && value.unit === 1 && value.value > 0 ? value.value : 0;
  };
  const body = await new VectorWriter(resolvePaint, defs, budget).children(root.children);
  if (budget.pathBytes < 0 || budget.elements < 0) return null;
  const alpha = clamp01(numberAttr(root, attr.alpha, "alpha", 1));
  return {
    width: dp(attr.width, "width"),
    height: dp(attr.height, "height"),
    viewportWidth,
    viewportHeight,
    body: alpha < 1 ? `<g opacity="${svgNumber(alpha)}">${body}</g>` : body,
  };
}
