import { Writable } from "node:stream";
import { pino } from "pino";

/** Tests log only errors, so a failing test's output shows what broke. */
export const quietLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

/**
 * A logger that keeps the errors it is told, for a test to show beside a failed assertion: a
 * 500 that happens once in many runs then says why in the run that saw it.
 */
export function recordingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString().trim());
      done();
    },
  });
  return { logger: pino({ level: "error" }, sink), errors: () => lines.join("\n") };
}
