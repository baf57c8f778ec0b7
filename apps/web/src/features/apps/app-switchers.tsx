// Moves between the project's platforms (same environment) and this platform's environments.
import { Button, Group, Text } from "@mantine/core";
import type { AppLink, ApplicationDetail } from "@tarmac/contracts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { platformKey } from "../../ui/platform.ts";

export function AppSwitchers({ app }: { app: ApplicationDetail }) {
  const { t } = useTranslation();
  const self: AppLink = {
    id: app.id,
    title: app.title,
    app_type: app.app_type,
    environment: app.environment,
  };
  const platforms = [self, ...app.other_platform].sort((a, b) => a.app_type - b.app_type);
  const environments = app.environments ?? [];
  return (
    <Group gap="xl" align="flex-start">
      {platforms.length > 1 ? (
        <Switcher
          label={t("apps.platforms")}
          links={platforms}
          currentId={app.id}
          name={(link) => t(platformKey(link.app_type))}
        />
      ) : null}
      {environments.length > 1 ? (
        <Switcher
          label={t("apps.environments")}
          links={environments}
          currentId={app.id}
          name={(link) => link.environment || "—"}
        />
      ) : null}
    </Group>
  );
}

interface SwitcherProps {
  label: string;
  links: AppLink[];
  currentId: number;
  name: (link: AppLink) => string;
}

function Switcher({ label, links, currentId, name }: SwitcherProps) {
  return (
    <nav aria-label={label}>
      <Text fz="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
        {label}
      </Text>
      <Group gap={6}>
        {links.map((link) => {
          const current = link.id === currentId;
          return (
            <Button
              key={link.id}
              component={Link}
              to={`/dashboard/apps/${link.id}`}
              size="xs"
              variant={current ? "filled" : "default"}
              aria-current={current ? "page" : undefined}
            >
              {name(link)}
            </Button>
          );
        })}
      </Group>
    </nav>
  );
}
