// The dialog a version's "Sign" action opens for an iOS build.
import { Modal } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { Version } from "../../../api/applications.ts";
import { ResignIosForm } from "./resign-ios-form.tsx";

/** iOS builds that can be re-signed: a finished IPA. */
export function canResignIos(version: Version): boolean {
  return (
    version.app_type === 1 && version.state === "ready" && version.file_name.toLowerCase().endsWith(".ipa")
  );
}

// A default export: the versions table loads this dialog only when it is opened.
export default function ResignIosModal({
  version,
  onClose,
}: {
  version: Version | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={version !== null}
      onClose={onClose}
      title={t("resign_ios.title_for", {
        version: version?.version ?? "",
        build: version?.build_version_number ?? "",
      })}
      size="lg"
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      {version ? <ResignIosForm key={version.id} version={version} onDone={onClose} /> : null}
    </Modal>
  );
}
