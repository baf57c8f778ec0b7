// The app's identity and the actions on the whole app, as far as the caller's rights go.
import { ActionIcon, Badge, Button, Code, Group, Paper, Stack, Text, Title, Tooltip } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { ApplicationDetail, MyAppRole } from "../../api/applications.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { AppIcon } from "../../ui/app-icon.tsx";
import { copyText } from "../../ui/copy.ts";
import { PLATFORM_COLORS, platformKey } from "../../ui/platform.ts";
import { AppSwitchers } from "./app-switchers.tsx";
import { DeleteAppButton } from "./delete-app-dialog.tsx";
import { EditAppButton } from "./edit-app-dialog.tsx";
import { useUploadFlow } from "./upload/upload-context.tsx";

export function AppHeader({ app, rights }: { app: ApplicationDetail; rights: MyAppRole }) {
  const { t } = useTranslation();
  const flow = useUploadFlow();
  const icon = app.icon ?? app.current_version?.icon ?? null;
  return (
    <Paper withBorder radius="md" p={{ base: "md", sm: "lg" }}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="md">
          <Group gap="md" wrap="nowrap" align="flex-start">
            <AppIcon src={icon} appType={app.app_type} title={app.project_title || app.title} size={64} />
            <Stack gap={4}>
              <Title order={1} fz={{ base: 22, sm: 28 }}>
                {app.project_title || app.title}
              </Title>
              <Group gap="xs">
                <Badge variant="light" color={PLATFORM_COLORS[app.app_type]}>
                  {t(platformKey(app.app_type))}
                </Badge>
                {app.environment ? <Badge variant="outline">{app.environment}</Badge> : null}
                {app.new_version ? (
                  <Text fz="sm" c="dimmed">
                    {t("apps.version_build", {
                      version: app.new_version,
                      build: app.current_version?.build_version_number ?? "",
                    })}
                  </Text>
                ) : null}
              </Group>
              {app.description ? (
                <Text fz="sm" c="dimmed" maw={640}>
                  {app.description}
                </Text>
              ) : null}
            </Stack>
          </Group>
          <Group gap="xs">
            {rights.can_upload ? (
              <Button onClick={() => flow.open(app)}>{t("apps.upload_version")}</Button>
            ) : null}
            {rights.can_edit ? (
              <Button variant="default" onClick={() => flow.openForProject(app)}>
                {t("apps.add_platform")}
              </Button>
            ) : null}
            {rights.can_edit ? <EditAppButton app={app} /> : null}
            {rights.can_delete ? <DeleteAppButton app={app} /> : null}
          </Group>
        </Group>
        <Stack gap={6}>
          <CopyField label={t("apps.bundle_id")} value={app.unique_app_id ?? ""} />
          <CopyField label={t("apps.app_key")} value={app.app_key} />
          {rights.can_upload ? <CopyField label={t("apps.upload_path")} value={app.upload_path} /> : null}
        </Stack>
        <AppSwitchers app={app} />
      </Stack>
    </Paper>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  if (!value) return null;
  const copy = async () => {
    if (await copyText(value)) alerts.show({ type: "success", message: t("COPIED TO CLIPBOARD") });
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Text fz="sm" c="dimmed" w={120} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Code style={{ overflowWrap: "anywhere" }}>{value}</Code>
      <Tooltip label={t("apps.copy")}>
        <ActionIcon variant="subtle" aria-label={t("apps.copy_named", { name: label })} onClick={copy}>
          <CopyIcon />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Two overlapping sheets; drawn, since not every system font has a copy glyph. */
function CopyIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor">
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
      <path d="M10.5 3.5v-1a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h1" />
    </svg>
  );
}
