import { AppShell, Burger, Drawer, Group, VisuallyHidden } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useNavigate } from "react-router";
import { logout } from "../../api/auth.ts";
import { DashboardProvider } from "../../api/dashboard-context.tsx";
import { BrandMark } from "../../ui/brand-mark.tsx";
import { LanguageSelect } from "../../ui/language-select.tsx";
import { useBreakpoint } from "../../ui/use-breakpoint.ts";
import { InvitationsPrompt } from "./invitations-prompt.tsx";
import { SideMenu } from "./side-menu.tsx";

const NAVBAR_WIDTH = 264;

export function DashboardLayout() {
  return (
    <DashboardProvider>
      <DashboardShell />
    </DashboardProvider>
  );
}

function DashboardShell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { breakpoint } = useBreakpoint();
  // Phones and small tablets (xs, sm) get the menu in a drawer behind a burger button.
  const compact = breakpoint === "xs" || breakpoint === "sm";
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [menuActive, setMenuActive] = useState(true);
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

  const menuOpen = compact ? drawerOpen : menuActive;
  const menu = <SideMenu onNavigate={() => setDrawerOpen(false)} onLogout={signOut} leaving={leaving} />;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: NAVBAR_WIDTH, breakpoint: "md", collapsed: { mobile: true, desktop: !menuActive } }}
      padding={{ base: "sm", sm: "md", md: "lg" }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              size="sm"
              opened={menuOpen}
              aria-label={menuOpen ? t("menu.hide") : t("menu.show")}
              aria-expanded={menuOpen}
              onClick={() => (compact ? setDrawerOpen((open) => !open) : setMenuActive((active) => !active))}
            />
            {/* The visible brand is the start of the link's name, then where it goes (WCAG 2.5.3). */}
            <Link to="/dashboard" style={{ textDecoration: "none" }}>
              <BrandMark />
              <VisuallyHidden>{` – ${t("dashboard.title")}`}</VisuallyHidden>
            </Link>
          </Group>
          <LanguageSelect />
        </Group>
      </AppShell.Header>
      {compact ? (
        <Drawer
          opened={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          title={t("menu.label")}
          size={NAVBAR_WIDTH + 16}
          padding="sm"
          closeButtonProps={{ "aria-label": t("alert.close") }}
        >
          {menu}
        </Drawer>
      ) : (
        <AppShell.Navbar p="sm" inert={!menuActive}>
          {menu}
        </AppShell.Navbar>
      )}
      <AppShell.Main bg="gray.0">
        <InvitationsPrompt />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
