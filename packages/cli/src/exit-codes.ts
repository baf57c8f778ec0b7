/**
 * Exit codes. 1-10 are the server's upload error codes, so a script can act on the same number
 * the API answers; the others follow sysexits.h, where one fits.
 */
export const exitCodes = {
  ok: 0,
  usage: 64,
  auth: 65,
  noInput: 66,
  unavailable: 69,
  server: 70,
} as const;

/** A failure with the exit code it ends the process with and the one line it prints. */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(exitCodes.usage, message);
