import type { AppType } from "@tarmac/contracts";
import { useTranslation } from "react-i18next";
import { Alert } from "../../../ui/alert.tsx";
import { platformKey } from "../../../ui/platform.ts";

/**
 * A .zip is read by what it holds; when that differs from the platform chosen (a new app) or the
 * app's own (a new version), say so before Add rather than after.
 */
export function ZipPlatformNote({
  fileName,
  found,
  chosen,
  forExistingApp,
}: {
  fileName: string;
  found: AppType;
  chosen: AppType;
  forExistingApp: boolean;
}) {
  const { t } = useTranslation();
  if (!/\.zip$/i.test(fileName) || found === chosen) return null;
  const values = { found: t(platformKey(found)), chosen: t(platformKey(chosen)) };
  return forExistingApp ? (
    <Alert type="error" message={t("upload.zip_other_platform", values)} timeout={0} dismissible={false} />
  ) : (
    <Alert type="info" message={t("upload.zip_read_as", values)} timeout={0} dismissible={false} />
  );
}
