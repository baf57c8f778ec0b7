import { Button, Code, Group, Stack, Text } from "@mantine/core";
import { useClipboard } from "@mantine/hooks";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

// Device identifiers are 25 characters (newer devices, with a dash) or 40 hex digits.
const UDID_PATTERN = /^(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{16}|[0-9A-Fa-f]{40})$/;

/** Shows the device identifier that the enrolment flow hands back as ?udid=. */
export function GetMyUdidPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("udid.title"));
  const [searchParams] = useSearchParams();
  const udid = searchParams.get("udid")?.trim() ?? "";
  const valid = UDID_PATTERN.test(udid);
  const clipboard = useClipboard();
  const alerts = useAlerts();

  const copy = () => {
    clipboard.copy(udid);
    alerts.show({ type: "success", message: t("COPIED TO CLIPBOARD") });
  };

  return (
    <PublicLayout>
      <AuthCard title={t("udid.title")} subtitle={t("udid.description")}>
        {valid ? (
          <Stack gap="sm">
            <Text fw={600} id="udid-label">
              {t("udid.your_udid")}
            </Text>
            <Code block aria-labelledby="udid-label" fz="md" style={{ wordBreak: "break-all" }}>
              {udid}
            </Code>
            <Group>
              <Button onClick={copy}>{t("udid.copy")}</Button>
            </Group>
          </Stack>
        ) : (
          <Text c="dimmed">{udid ? t("udid.invalid") : t("udid.none")}</Text>
        )}
      </AuthCard>
    </PublicLayout>
  );
}
