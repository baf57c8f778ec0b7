import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors.ts";

/** For bodies Fastify cannot validate up front (JSON or multipart on one route): zod issues as field errors. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join(".") || "non_field_errors";
    fields[field] = [...(fields[field] ?? []), issue.message];
  }
  throw AppError.validation(fields);
}
