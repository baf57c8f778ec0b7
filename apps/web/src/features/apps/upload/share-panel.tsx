// What the add-app dialog shows once a build is in: its install link with the QR code, ways to
// pass them on, and why phones may refuse the build. The link is the app's permanent one (the
// newest released build), so it stays valid for the next upload too.
import { Alert, Button, Group, Image, List, Stack, Text, TextInput } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { BuildWarning } from "@tarmac/contracts";
import { useTranslation } from "react-i18next";
import { distributionKeys, fetchAppLink } from "../../../api/distribution.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { useCopyWithAlert } from "../../../ui/use-copy-with-alert.ts";

interface SharePanelProps {
  appId: number;
  title: string;
  warnings: BuildWarning[];
  onSendToTesters: () => void;
  onGoToVersions: () => void;
  onDone: () => void;
}

/** The QR code's file name: the app's title in letters and digits. */
function qrFileName(title: string): string {
  const base = title.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "");
  return `${base || "install-link"}-qr.png`;
}

export function SharePanel({
  appId,
  title,
  warnings,
  onSendToTesters,
  onGoToVersions,
  onDone,
}: SharePanelProps) {
  const { t } = useTranslation();
  const copy = useCopyWithAlert();
  const link = useQuery({
    queryKey: [...distributionKeys.links(appId), "app-link"],
    queryFn: () => fetchAppLink(appId),
  });
  return (
    <Stack gap="md">
      <Text fw={600}>{t("share.title", { title })}</Text>
      {warnings.length > 0 ? (
        <Alert color="red" title={t("share.warnings_title")} role="alert">
          <List size="sm" spacing={4}>
            {warnings.map((warning) => (
              <List.Item key={warning.code}>
                {t(`share.warnings.${warning.code}`, { defaultValue: warning.message })}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {link.isError ? <LoadError onRetry={() => void link.refetch()} /> : null}
      {link.isPending ? <Text c="dimmed">{t("share.loading")}</Text> : null}
      {link.data ? (
        <Group align="flex-start" wrap="wrap" gap="md">
          <Image src={link.data.qr} alt={t("share.qr_alt")} w={160} h={160} />
          <Stack gap="xs" style={{ flex: "1 1 240px", minWidth: 0 }}>
            <TextInput
              label={t("share.link_label")}
              value={link.data.url}
              readOnly
              onFocus={(e) => e.currentTarget.select()}
            />
            <Text fz="xs" c="dimmed">
              {t("share.link_hint")}
            </Text>
            <Group gap="xs">
              <Button size="xs" onClick={() => void copy(link.data?.url ?? "")}>
                {t("share.copy_link")}
              </Button>
              <Button
                size="xs"
                variant="light"
                component="a"
                href={link.data.qr}
                download={qrFileName(title)}
              >
                {t("share.download_qr")}
              </Button>
            </Group>
          </Stack>
        </Group>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="light" onClick={onSendToTesters}>
          {t("share.send_testers")}
        </Button>
        <Button variant="default" onClick={onGoToVersions}>
          {t("share.go_to_versions")}
        </Button>
        <Button onClick={onDone} data-autofocus>
          {t("share.done")}
        </Button>
      </Group>
    </Stack>
  );
}
