import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { privateAddressHint, privateAddressMessage } from "../platform/net/network-errors.ts";

export type FieldErrors = Record<string, string[]>;

/**
 * The one error type of the API. `code` names the failure for logs and tests; the body sent is
 * DRF-shaped: `{detail}`, per-field `{field: [message]}`, or `{error_code, detail}` when the
 * client acts on a code (upload errors 1-10, "user_limit_reached").
 */
export class AppError extends Error {
  override readonly name = "AppError";

  constructor(
    readonly code: string,
    readonly status: number,
    readonly detail: string,
    readonly fields?: FieldErrors,
    readonly errorCode?: number | string,
  ) {
    super(detail);
  }

  body(): Record<string, unknown> {
    if (this.fields) return this.fields;
    if (this.errorCode !== undefined) return { error_code: this.errorCode, detail: this.detail };
    return { detail: this.detail };
  }

  static notFound(detail = "Not found."): AppError {
    return new AppError("not_found", 404, detail);
  }

  static unauthorized(detail = "Authentication credentials were not provided."): AppError {
    return new AppError("unauthorized", 401, detail);
  }

  static forbidden(detail = "You do not have permission to perform this action."): AppError {
    return new AppError("forbidden", 403, detail);
  }

  static badRequest(detail: string): AppError {
    return new AppError("bad_request", 400, detail);
  }

  static validation(fields: FieldErrors): AppError {
    return new AppError("validation", 400, "Invalid input.", fields);
  }

  static tooManyRequests(retryAfterSeconds: number): AppError {
    return new AppError(
      "throttled",
      429,
      `Request was throttled. Expected available in ${retryAfterSeconds} seconds.`,
    );
  }
}

/** Zod issue paths become DRF field names; issues without a path go under non_field_errors. */
function fieldErrorsFromValidation(validation: { instancePath?: string; message?: string }[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of validation) {
    const field = (issue.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".") || "non_field_errors";
    fields[field] = [...(fields[field] ?? []), issue.message ?? "Invalid value."];
  }
  return fields;
}

export function handleError(
  error: FastifyError | AppError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof AppError) {
    // A throttled client learns when to come back, whichever route refused it.
    const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter !== undefined) reply.header("retry-after", String(retryAfter));
    const body = error.body();
    return reply
      .status(error.status)
      .send(request.actor?.isInstanceAdmin ? withAdministratorHints(body) : body);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return reply.status(400).send(fieldErrorsFromValidation(error.validation));
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    return reply.status(status).send({ detail: error.message });
  }
  if (isUntypeableText(error)) {
    // The edge refuses NUL characters; anything that slipped past is still the client's input.
    return reply
      .status(400)
      .send({ detail: "The request contains text that cannot be stored (a NUL character)." });
  }
  request.log.error({ err: error }, "unhandled error");
  return reply.status(500).send({ detail: "Internal server error.", request_id: request.id });
}

/**
 * Instance administrators also learn how to allow what was refused: a private address refused in
 * an organization's settings names the setting that allows it on-premises.
 */
function withAdministratorHints(body: Record<string, unknown>): Record<string, unknown> {
  const hinted = (message: unknown) =>
    typeof message === "string" && message.includes(privateAddressMessage)
      ? `${message} ${privateAddressHint}`
      : message;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.map(hinted) : hinted(value),
    ]),
  );
}

/** PostgreSQL's "invalid byte sequence" (22021): text with a NUL, as the driver or Drizzle reports it. */
function isUntypeableText(error: unknown): boolean {
  const codeOf = (value: unknown) => (value as { code?: unknown } | null)?.code;
  return codeOf(error) === "22021" || codeOf((error as { cause?: unknown }).cause) === "22021";
}
