/** Stripe's error answers and form bodies, for the loopback Stripe peer. */
type Json = Record<string, unknown>;
type Params = Record<string, unknown>;

export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}

export const missing = (param: string) =>
  new StripeFailure(400, {
    type: "invalid_request_error",
    message: `Missing required param: ${param}.`,
    param,
  });
export const noSuch = (kind: string, id: string) =>
  new StripeFailure(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${kind}: '${id}'`,
  });

/** `a[b][0]=c` form bodies and query strings into nested objects and arrays, as Stripe reads them. */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1] ?? "");
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}
