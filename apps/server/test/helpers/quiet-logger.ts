import { pino } from "pino";

/** Tests log only errors, so a failing test's output shows what broke. */
export const quietLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
