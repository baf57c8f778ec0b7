// Turns a DRF-style 400 body ({"field": ["message"]}, {"detail": "..."}) into what a form shows.
import { ApiError, SERVER_ERROR_MESSAGE } from "./client.ts";

export interface FormErrors {
  fields: Record<string, string>;
  general: string | null;
}

function joinMessages(value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => joinMessages(item)).join(" ");
  if (typeof value === "string") return value;
  return "";
}

/**
 * Messages for fields the form does not show go to the general message, so that nothing the
 * server said is lost. `serverErrorText` is the translated "Server Error" fallback.
 */
export function readFormErrors(
  error: unknown,
  fieldNames: readonly string[],
  serverErrorText: string,
): FormErrors {
  const errors: FormErrors = { fields: {}, general: null };
  if (!(error instanceof ApiError)) {
    errors.general = serverErrorText;
    return errors;
  }
  const general: string[] = [];
  if (error.status === 400 && typeof error.body === "object" && error.body !== null) {
    for (const [key, value] of Object.entries(error.body)) {
      const text = joinMessages(value);
      if (!text) continue;
      if (fieldNames.includes(key)) errors.fields[key] = text;
      else general.push(text);
    }
    if (general.length > 0) errors.general = general.join(" ");
    else if (Object.keys(errors.fields).length === 0) errors.general = serverErrorText;
    return errors;
  }
  errors.general = error.message === SERVER_ERROR_MESSAGE ? serverErrorText : error.message;
  return errors;
}
