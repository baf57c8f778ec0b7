import { z } from "zod";

/**
 * Validation messages in Django REST Framework's words, which the API has always spoken and
 * Updraft's clients show: "This field is required.", "A valid integer is required.", ... A message
 * a schema spells out itself still wins; this covers every check that does not.
 */
export const drfMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "This field is required.";
      if (issue.input === null) return "This field may not be null.";
      if (issue.expected === "number" || issue.expected === "int" || issue.expected === "bigint") {
        return "A valid integer is required.";
      }
      if (issue.expected === "boolean") return "Must be a valid boolean.";
      if (issue.expected === "string") return "Not a valid string.";
      if (issue.expected === "array")
        return `Expected a list of items but got type "${typeName(issue.input)}".`;
      if (issue.expected === "object") return "Invalid data. Expected a dictionary.";
      return "Invalid value.";
    }
    case "too_small":
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1
          ? "This field may not be blank."
          : `Ensure this field has at least ${issue.minimum} characters.`;
      }
      if (issue.origin === "array" || issue.origin === "set") {
        return Number(issue.minimum) <= 1
          ? "This list may not be empty."
          : `Ensure this field has at least ${issue.minimum} elements.`;
      }
      return `Ensure this value is greater than or equal to ${issue.minimum}.`;
    case "too_big":
      if (issue.origin === "string") return `Ensure this field has no more than ${issue.maximum} characters.`;
      if (issue.origin === "array" || issue.origin === "set") {
        return `Ensure this field has no more than ${issue.maximum} elements.`;
      }
      return `Ensure this value is less than or equal to ${issue.maximum}.`;
    case "invalid_format":
      if (issue.format === "email") return "Enter a valid email address.";
      if (issue.format === "url") return "Enter a valid URL.";
      if (issue.format === "datetime" || issue.format === "date") {
        return "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].";
      }
      return "Enter a valid value.";
    case "invalid_value":
      return `"${String(issue.input)}" is not a valid choice.`;
    case "not_multiple_of":
      return `Ensure this value is a multiple of ${issue.divisor}.`;
    default:
      return "Invalid value.";
  }
};

/** Python's type names, as DRF quotes them. */
function typeName(value: unknown): string {
  if (typeof value === "string") return "str";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "boolean") return "bool";
  if (value === null) return "NoneType";
  return "dict";
}

/** Makes DRF's words the default for every schema of this process. */
export function useDrfMessages(): void {
  z.config({ customError: drfMessage });
}
