import { Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Table, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ApplicationRecord } from "../../api/applications.ts";
import { AppIcon } from "../../ui/app-icon.tsx";
import { PLATFORM_COLORS, platformKey } from "../../ui/platform.ts";

export function AppsTable({ apps }: { apps: ApplicationRecord[] }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("apps.app")}</Table.Th>
              <Table.Th>{t("apps.platform")}</Table.Th>
              <Table.Th>{t("apps.current_version")}</Table.Th>
              <Table.Th>{t("apps.environment")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {apps.map((app) => (
              <AppRow key={app.id} app={app} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function AppRow({ app }: { app: ApplicationRecord }) {
  const { t } = useTranslation();
  const current = app.current_version;
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <AppIcon
            src={app.icon ?? current?.icon ?? null}
            appType={app.app_type}
            title={app.project_title || app.title}
          />
          <Stack gap={0}>
            <Anchor component={Link} to={`/dashboard/apps/${app.id}`} fw={600}>
              {app.project_title || app.title}
            </Anchor>
            {app.title && app.title !== app.project_title ? (
              <Text fz="xs" c="dimmed">
                {app.title}
              </Text>
            ) : null}
          </Stack>
        </Group>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={PLATFORM_COLORS[app.app_type]}>
          {t(platformKey(app.app_type))}
        </Badge>
      </Table.Td>
      <Table.Td>
        {current ? (
          t("apps.version_build", { version: current.version, build: current.build_version_number })
        ) : (
          <Text c="dimmed" fz="sm">
            {t("apps.no_builds")}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{app.environment ? <Badge variant="outline">{app.environment}</Badge> : "—"}</Table.Td>
    </Table.Tr>
  );
}

export function AppsSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" aria-busy="true" aria-label={t("common.loading")} role="status">
      {[0, 1, 2].map((row) => (
        <Group key={row} gap="sm" wrap="nowrap">
          <Skeleton height={40} width={40} radius="md" />
          <Stack gap={6} style={{ flex: 1 }}>
            <Skeleton height={12} width="40%" />
            <Skeleton height={10} width="25%" />
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}

export function AppsEmpty({
  filtered,
  canCreate,
  onAdd,
}: {
  filtered: boolean;
  canCreate: boolean;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="sm">
        <Text fw={600}>{filtered ? t("apps.none_found") : t("apps.empty")}</Text>
        {filtered ? null : (
          <Text c="dimmed" ta="center">
            {canCreate ? t("apps.empty_hint") : t("apps.empty_member")}
          </Text>
        )}
        {canCreate && !filtered ? <Button onClick={onAdd}>{t("apps.add")}</Button> : null}
      </Stack>
    </Paper>
  );
}
