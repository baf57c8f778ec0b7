import { AppShell, Button, Group } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useNavigate } from "react-router";
import { logout } from "../../api/auth.ts";
import { BrandMark } from "../../ui/brand-mark.tsx";
import { LanguageSelect } from "../../ui/language-select.tsx";

export function DashboardLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);

  const signOut = async () => {
    setLeaving(true);
    try {
      await logout();
    } catch {
      // The local session is already cleared; a failed server call must not keep the user in.
    } finally {
      queryClient.clear();
      navigate("/login", { replace: true });
    }
  };

  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Link to="/dashboard" aria-label={t("dashboard.title")} style={{ textDecoration: "none" }}>
            <BrandMark />
          </Link>
          <Group gap="sm" wrap="nowrap">
            <LanguageSelect />
            <Button variant="default" size="xs" loading={leaving} onClick={signOut}>
              {t("dashboard.logout")}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
