// The device identifier page (spec §2): installs the enrolment profile on iOS, then shows the
// UDID the enrolment hands back as ?udid= and, for a signed-in user, the builds that include it.
import { Button, Code, Group, List, Stack, Text } from "@mantine/core";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { UDID_PROFILE_URL } from "../../../api/distribution.ts";
import { useLoggedIn } from "../../../api/use-logged-in.ts";
import { readVisitorDevice } from "../../../ui/install-platform.ts";
import { AuthCard, PublicLayout } from "../../../ui/public-layout.tsx";
import { useCopyWithAlert } from "../../../ui/use-copy-with-alert.ts";
import { useDocumentTitle } from "../../../ui/use-document-title.ts";
import { InAppBrowserNotice } from "../getapp/install-notices.tsx";
import { QrCode } from "../qr-code.tsx";
import { DeviceBuilds } from "./device-builds.tsx";

// Device identifiers are 25 characters (newer devices, with a dash) or 40 hex digits.
const UDID_PATTERN = /^(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{16}|[0-9A-Fa-f]{40})$/;

export function GetMyUdidPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("udid.title"));
  const [searchParams] = useSearchParams();
  const udid = searchParams.get("udid")?.trim() ?? "";
  return (
    <PublicLayout>
      <AuthCard title={t("udid.title")} subtitle={t("udid.description")}>
        {udid ? (
          UDID_PATTERN.test(udid) ? (
            <ReceivedUdid
              udid={udid}
              product={searchParams.get("product")}
              version={searchParams.get("version")}
            />
          ) : (
            <Text c="dimmed">{t("udid.invalid")}</Text>
          )
        ) : (
          <Enrol />
        )}
      </AuthCard>
    </PublicLayout>
  );
}

function Enrol() {
  const { t } = useTranslation();
  const visitor = useMemo(() => readVisitorDevice(), []);
  const onApple = visitor.device === "iphone" || visitor.device === "ipad";
  return (
    <Stack gap="md">
      <InAppBrowserNotice device={visitor.device} browser={visitor.inAppBrowser} />
      <List type="ordered" spacing="xs" fz="sm">
        <List.Item>{t("udid.step_download")}</List.Item>
        <List.Item>{t("udid.step_install")}</List.Item>
        <List.Item>{t("udid.step_return")}</List.Item>
      </List>
      <Button component="a" href={UDID_PROFILE_URL} size="md" fullWidth>
        {t("udid.register")}
      </Button>
      {onApple ? null : (
        <Stack gap="xs" align="center">
          <Text fz="sm" c="dimmed" ta="center">
            {t("udid.open_on_device")}
          </Text>
          <QrCode value={`${window.location.origin}/get-my-udid`} label={t("udid.qr_label")} />
        </Stack>
      )}
    </Stack>
  );
}

function ReceivedUdid({
  udid,
  product,
  version,
}: {
  udid: string;
  product: string | null;
  version: string | null;
}) {
  const { t } = useTranslation();
  const copy = useCopyWithAlert();
  const loggedIn = useLoggedIn();
  return (
    <Stack gap="sm">
      <Text fw={600} id="udid-label">
        {t("udid.your_udid")}
      </Text>
      <Code block aria-labelledby="udid-label" fz="md" style={{ wordBreak: "break-all" }}>
        {udid}
      </Code>
      {product || version ? (
        <Text fz="sm" c="dimmed">
          {[product, version ? t("udid.os_version", { version }) : null].filter(Boolean).join(" · ")}
        </Text>
      ) : null}
      <Group>
        <Button onClick={() => void copy(udid)}>{t("udid.copy")}</Button>
      </Group>
      <Text fz="sm">{t("udid.send_to_team")}</Text>
      {loggedIn ? <DeviceBuilds udid={udid} /> : null}
    </Stack>
  );
}
