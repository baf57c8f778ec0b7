// Tells the people who distribute an iOS app that this instance cannot install it on devices:
// iOS fetches over-the-air manifests and IPAs from https:// addresses only.
import { Alert, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { distributionKeys, fetchDistributionInstance } from "../../../api/distribution.ts";

export function IosHttpsWarning() {
  const { t } = useTranslation();
  const instance = useQuery({
    queryKey: distributionKeys.instance(),
    queryFn: fetchDistributionInstance,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!instance.data || instance.data.ios_installs) return null;
  return (
    <Alert color="red" title={t("distribution.ios_https_title")}>
      <Text fz="sm">{instance.data.reason}</Text>
    </Alert>
  );
}
