import type { TFunction } from "i18next";
import { ApiError, SERVER_ERROR_MESSAGE } from "../api/client.ts";

/** The server's own message when it gave one, else the translated "Server Error". */
export function describeError(error: unknown, t: TFunction): string {
  if (error instanceof ApiError && error.message !== SERVER_ERROR_MESSAGE) return error.message;
  return t("errors.server");
}
