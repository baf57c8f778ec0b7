import { badRequestBody, errorBody } from "@tarmac/contracts";

/**
 * The error answers routes declare for the OpenAPI document. A 400 may carry per-field errors
 * (a schema that allowed only {detail} would turn every validation error into a 500).
 */
export const errorResponses = {
  400: badRequestBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  429: errorBody,
};
