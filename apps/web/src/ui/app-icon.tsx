import { Avatar } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { AppType } from "../api/applications.ts";
import { PLATFORM_COLORS, PLATFORM_MONOGRAMS, platformKey } from "./platform.ts";

/** The build's icon, or a platform placeholder when the build carries none. */
export function AppIcon({
  src,
  appType,
  size = 40,
}: {
  src: string | null;
  appType: AppType;
  size?: number;
}) {
  const { t } = useTranslation();
  return (
    <Avatar
      src={src}
      size={size}
      radius="md"
      color={PLATFORM_COLORS[appType]}
      alt=""
      data-placeholder={src ? undefined : t(platformKey(appType))}
    >
      <span aria-hidden="true">{PLATFORM_MONOGRAMS[appType]}</span>
    </Avatar>
  );
}
