// One install link: its QR code, URL with copy, access settings and counts.
import { ActionIcon, Badge, Button, Group, Image, Menu, Paper, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { DistributionRecord } from "../../../api/distribution.ts";
import { formatDateTime } from "../../../ui/format/date.ts";
import { useCopyWithAlert } from "../../../ui/use-copy-with-alert.ts";

interface LinkCardProps {
  link: DistributionRecord;
  /** "Newest build" for the app-level link, else the version's label. */
  target: string;
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
}

export function LinkCard({ link, target, canManage, onEdit, onDelete }: LinkCardProps) {
  const { t, i18n } = useTranslation();
  const copy = useCopyWithAlert();
  const state = link.state === "active" ? null : link.state;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="article"
      aria-label={t("distribution.link_for", { target })}
    >
      <Group align="flex-start" wrap="wrap" gap="md">
        <Image src={link.qr} alt={t("distribution.qr_of", { target })} w={120} h={120} />
        <Stack gap={6} style={{ flex: "1 1 220px", minWidth: 0 }}>
          <Group gap="xs" justify="space-between" wrap="nowrap">
            <Stack gap={0} style={{ minWidth: 0 }}>
              {link.name ? <Text fw={600}>{link.name}</Text> : null}
              <Text
                fw={link.name ? 400 : 600}
                fz={link.name ? "sm" : undefined}
                c={link.name ? "dimmed" : undefined}
              >
                {target}
              </Text>
            </Stack>
            {canManage ? (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="subtle" aria-label={t("distribution.link_actions", { target })}>
                    <span aria-hidden="true">⋯</span>
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={onEdit}>{t("distribution.edit_link")}</Menu.Item>
                  {link.version !== null ? (
                    <Menu.Item color="red" onClick={onDelete}>
                      {t("distribution.delete_link")}
                    </Menu.Item>
                  ) : null}
                </Menu.Dropdown>
              </Menu>
            ) : null}
          </Group>
          <Text fz="sm" style={{ wordBreak: "break-all" }}>
            {link.url}
          </Text>
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => void copy(link.url)}>
              {t("distribution.copy_link")}
            </Button>
            <Button size="xs" variant="subtle" component="a" href={link.url} target="_blank" rel="noreferrer">
              {t("distribution.open_link")}
            </Button>
          </Group>
          <Group gap={6}>
            <Badge variant="light">{t(`distribution.access.${link.access}`)}</Badge>
            {state ? <Badge color="red">{t(`distribution.${state}`)}</Badge> : null}
          </Group>
          <Text fz="xs" c="dimmed">
            {[
              link.expires_at
                ? t("distribution.expires", { date: formatDateTime(link.expires_at, i18n.language) })
                : t("distribution.no_expiry"),
              link.install_limit > 0
                ? t("distribution.limit", { used: link.installs_count, count: link.install_limit })
                : t("distribution.no_limit"),
              t("distribution.counts", { install: link.counts.install, download: link.counts.download }),
            ].join(" · ")}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
