// One build of the install page: its install button and what the visitor needs to know about it.
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from "@mantine/core";
import type { DevicePlatform } from "@tarmac/contracts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { GetappBuild } from "../../../api/distribution.ts";
import { formatDateTime } from "../../../ui/format/date.ts";
import { minimumSystem } from "../../../ui/format/min-os.ts";
import { formatBytes } from "../../../ui/format/size.ts";
import { installLabelKey } from "../../../ui/install-platform.ts";

const PLATFORM_LABEL_KEYS = {
  ios: "platforms.ios",
  android: "platforms.android",
  windows: "platforms.windows",
  macos: "platforms.macos",
} as const;

interface BuildInstallProps {
  build: GetappBuild;
  device: DevicePlatform;
  /** The device's own build: a large filled button. */
  primary: boolean;
  /** Whether the server is on HTTPS, without which iOS refuses over-the-air installs. */
  https: boolean;
}

export function BuildInstall({ build, device, primary, https }: BuildInstallProps) {
  const { t, i18n } = useTranslation();
  const platform = t(PLATFORM_LABEL_KEYS[build.platform]);
  const blocked = build.platform === "ios" && !https;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={platform}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Badge variant="light">{platform}</Badge>
          <Text fz="sm" c="dimmed" ta="right">
            {t("install.version_line", { version: build.version, build: build.build_version_number })}
          </Text>
        </Group>
        {blocked ? (
          <>
            <Button
              size={primary ? "lg" : "sm"}
              fullWidth
              disabled
              aria-describedby={`ios-blocked-${build.id}`}
            >
              {t(installLabelKey(build, device))}
            </Button>
            <Text fz="sm" c="red" id={`ios-blocked-${build.id}`}>
              {t("install.ios_disabled")}
            </Text>
          </>
        ) : (
          <Button
            component="a"
            href={build.install.url}
            size={primary ? "lg" : "sm"}
            variant={primary ? "filled" : "light"}
            fullWidth
          >
            {t(installLabelKey(build, device))}
          </Button>
        )}
        <Text fz="xs" c="dimmed">
          {[
            formatBytes(build.size),
            build.min_os_version
              ? t("install.min_os", { system: minimumSystem(build.platform, build.min_os_version) })
              : null,
            formatDateTime(build.date, i18n.language),
          ]
            .filter(Boolean)
            .join(" · ")}
        </Text>
        {build.whats_new ? (
          <Stack gap={2}>
            <Text fz="sm" fw={600}>
              {t("apps.whats_new")}
            </Text>
            <Text fz="sm" style={{ whiteSpace: "pre-line" }}>
              {build.whats_new}
            </Text>
          </Stack>
        ) : null}
        {build.platform === "ios" ? (
          <Text fz="xs" c="dimmed">
            {t("install.udid_hint")}{" "}
            <Anchor component={Link} to="/get-my-udid" fz="xs">
              {t("install.udid_link")}
            </Anchor>
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
