// The builds (of apps the signed-in user may read) whose provisioning profile lists a device.
import { Anchor, List, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { distributionKeys, lookupUdid } from "../../../api/distribution.ts";

export function DeviceBuilds({ udid }: { udid: string }) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: distributionKeys.udidLookup(udid), queryFn: () => lookupUdid(udid) });
  if (query.isPending) return <Text c="dimmed">{t("common.loading")}</Text>;
  if (query.isError) return <Text c="dimmed">{t("errors.load_failed")}</Text>;
  return (
    <Stack gap="xs">
      <Text fw={600}>{t("udid.builds_title")}</Text>
      {query.data.builds.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {t("udid.no_builds")}
        </Text>
      ) : (
        <List spacing={4} fz="sm">
          {query.data.builds.map((build) => (
            <List.Item key={build.id}>
              <Anchor component={Link} to={`/dashboard/apps/${build.app}`}>
                {t("udid.build_line", {
                  title: build.title,
                  version: build.version,
                  build: build.build_version_number,
                })}
              </Anchor>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
