/**
 * Turning an uploaded AAB into an APK testers can install (converted and signed with the app's
 * key) is the android-signing module's work, a module built on top of this one; it is declared
 * here and bound in app.ts, so imports still point one way only.
 */
export interface InstallableApkPort {
  /** Whether this instance can convert bundles at all (a converter is there). */
  readonly available: boolean;
  /** Writes the signed universal APK of the bundle at `bundlePath` to `outputPath`; `workDir` is scratch space. */
  fromBundle(
    build: { organizationId: number; applicationId: number },
    bundlePath: string,
    outputPath: string,
    workDir: string,
  ): Promise<void>;
}

/** A failure the port can name: 8 when the app has no signing key, 9 when conversion failed. */
export class InstallableApkError extends Error {
  constructor(
    readonly errorCode: 8 | 9,
    message: string,
  ) {
    super(message);
  }
}
