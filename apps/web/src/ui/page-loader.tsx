import { Center, Loader } from "@mantine/core";
import { useTranslation } from "react-i18next";

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center py="xl" mih={200}>
      {/* A status may carry a name; a bare span with aria-label is an ARIA error (axe flags it). */}
      <Loader role="status" aria-label={t("common.loading")} />
    </Center>
  );
}
