import type { FastifyInstance } from "fastify";
import { AppError } from "./errors.ts";

/**
 * PostgreSQL refuses NUL characters in text, so one that reached a query would fail it with a
 * 500. They never belong in any field, path or query of this API: refuse them at the edge.
 */
export const nulMessage = "NUL characters are not allowed.";

export function containsNul(value: string): boolean {
  return value.includes("\u0000");
}

/** A text field of a form (multipart) as it may go on: 400 naming the field when it holds a NUL. */
export function checkedField(field: string, value: string): string {
  if (containsNul(value)) throw AppError.validation({ [field]: [nulMessage] });
  return value;
}

/** The first path (a.b.0) of a string, or of a key, holding a NUL in a parsed JSON value. */
export function findNul(value: unknown, path = ""): string | null {
  if (typeof value === "string") return containsNul(value) ? path || "non_field_errors" : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, path ? `${path}.${index}` : String(index));
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (containsNul(key)) return here;
      const found = findNul(item, here);
      if (found) return found;
    }
  }
  return null;
}

export function registerNulGuard(app: FastifyInstance): void {
  // The raw URL is still percent-encoded, so a NUL in a path segment or query value shows as %00.
  app.addHook("onRequest", async (request) => {
    if (/%00/i.test(request.url) || containsNul(request.url)) {
      throw AppError.badRequest(`The address contains a NUL character. ${nulMessage}`);
    }
  });
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    parseJson(request, String(body), (error: Error | null, value?: unknown) => {
      if (error) return done(error);
      const field = findNul(value);
      if (field) return done(AppError.validation({ [field]: [nulMessage] }));
      return done(null, value);
    });
  });
}
