import type { Version } from "../../../api/applications.ts";

/** iOS builds that can be re-signed on the server: a finished IPA. */
export function canResignIos(version: Version): boolean {
  return (
    version.app_type === 1 && version.state === "ready" && version.file_name.toLowerCase().endsWith(".ipa")
  );
}
