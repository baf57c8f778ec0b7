/** Postgres reports a duplicate key as SQLSTATE 23505; drivers and Drizzle may wrap it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth += 1) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (candidate.code === "23505") {
      return !constraint || candidate.constraint === constraint || String(current).includes(constraint);
    }
    current = candidate.cause;
  }
  return false;
}
