// The dashboard's side menu (spec §2): links, one expanded submenu at a time, the storage
// warning and the organization switcher.
import { Avatar, Box, Divider, NavLink, ScrollArea, Stack, Text, UnstyledButton } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { canManageTeams, isAdminRole } from "../../api/roles.ts";
import { StorageWarning } from "./storage-warning.tsx";

interface MenuLink {
  to: string;
  labelKey: string;
}

interface MenuSection {
  id: string;
  labelKey: string;
  links: MenuLink[];
}

export function buildMenuSections(
  role: number | undefined,
  hasOrg: boolean,
  isInstanceAdmin = false,
): MenuSection[] {
  const orgLinks: MenuLink[] = [];
  if (hasOrg && isAdminRole(role)) {
    orgLinks.push({ to: "/dashboard/organization/settings", labelKey: "menu.org_settings" });
  }
  if (hasOrg && canManageTeams(role)) {
    orgLinks.push({ to: "/dashboard/organization/staff", labelKey: "menu.staff" });
    orgLinks.push({ to: "/dashboard/organization/teams", labelKey: "menu.teams" });
  }
  if (hasOrg && isAdminRole(role)) {
    orgLinks.push({ to: "/dashboard/feedback", labelKey: "menu.feedback" });
    orgLinks.push({ to: "/dashboard/organization/permission-groups", labelKey: "menu.permission_groups" });
    orgLinks.push({ to: "/dashboard/organization/storage", labelKey: "menu.storage" });
    orgLinks.push({ to: "/dashboard/organization/integrations", labelKey: "menu.integrations" });
    orgLinks.push({ to: "/dashboard/organization/store", labelKey: "menu.store" });
    orgLinks.push({ to: "/dashboard/organization/mail-server", labelKey: "menu.mail_server" });
    orgLinks.push({ to: "/dashboard/organization/sign-on", labelKey: "menu.sign_on" });
    orgLinks.push({ to: "/dashboard/organization/plan", labelKey: "menu.plan" });
  }
  orgLinks.push({ to: "/dashboard/organization/new", labelKey: "menu.new_org" });
  const sections: MenuSection[] = [
    { id: "organization", labelKey: "menu.organization", links: orgLinks },
    {
      id: "account",
      labelKey: "menu.account",
      links: [
        { to: "/dashboard/profile", labelKey: "menu.profile" },
        { to: "/dashboard/invitations", labelKey: "menu.invitations" },
      ],
    },
  ];
  // The instance's own administration, for the administrators signed in with their password.
  if (isInstanceAdmin) {
    sections.push({
      id: "admin",
      labelKey: "menu.administration",
      links: [
        { to: "/dashboard/admin/organizations", labelKey: "menu.admin_organizations" },
        { to: "/dashboard/admin/content", labelKey: "menu.admin_content" },
      ],
    });
  }
  return sections;
}

/** The submenu holding a page, known from its path even before the profile (and role) is loaded. */
export function findSectionOf(pathname: string): string | null {
  if (pathname.startsWith("/dashboard/organization/") || pathname.startsWith("/dashboard/feedback"))
    return "organization";
  if (pathname.startsWith("/dashboard/profile") || pathname.startsWith("/dashboard/invitations"))
    return "account";
  if (pathname.startsWith("/dashboard/admin/")) return "admin";
  return null;
}

interface SideMenuProps {
  onNavigate: () => void;
  onLogout: () => void;
  leaving: boolean;
}

export function SideMenu({ onNavigate, onLogout, leaving }: SideMenuProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { currentOrg, orgs, selectOrg, profile } = useDashboard();
  const sections = buildMenuSections(currentOrg?.role, currentOrg !== null, profile?.is_instance_admin);
  const inApps = pathname === "/dashboard/apps" || pathname.startsWith("/dashboard/apps/");
  // Only one submenu is open; choosing the open one again closes it.
  const [expanded, setExpanded] = useState<string | null>(() => findSectionOf(pathname));
  const toggle = (id: string) => setExpanded((current) => (current === id ? null : id));
  // Arriving at a page by a link outside the menu opens its submenu (and only that one).
  useEffect(() => {
    const section = findSectionOf(pathname);
    if (section) setExpanded(section);
  }, [pathname]);

  return (
    <Stack gap="xs" h="100%">
      <ScrollArea style={{ flex: 1 }} type="auto">
        <Box component="nav" aria-label={t("menu.label")}>
          <NavLink
            component={Link}
            to="/dashboard"
            label={t("menu.home")}
            active={pathname === "/dashboard"}
            aria-current={pathname === "/dashboard" ? "page" : undefined}
            onClick={onNavigate}
          />
          {currentOrg ? (
            <NavLink
              component={Link}
              to="/dashboard/apps"
              label={t("menu.apps")}
              active={inApps}
              aria-current={pathname === "/dashboard/apps" ? "page" : undefined}
              onClick={onNavigate}
            />
          ) : null}
          {currentOrg ? (
            <NavLink
              component={Link}
              to="/dashboard/m"
              label={t("menu.install")}
              active={pathname === "/dashboard/m"}
              aria-current={pathname === "/dashboard/m" ? "page" : undefined}
              onClick={onNavigate}
            />
          ) : null}
          {sections.map((section) => {
            const open = expanded === section.id;
            const panelId = `menu-${section.id}`;
            return (
              <Box key={section.id}>
                <NavLink
                  component="button"
                  type="button"
                  label={t(section.labelKey)}
                  aria-expanded={open}
                  aria-controls={panelId}
                  onClick={() => toggle(section.id)}
                  rightSection={<span aria-hidden="true">{open ? "▾" : "▸"}</span>}
                  fw={600}
                />
                {open ? (
                  <Box id={panelId} pl="md">
                    {section.links.map((link) => (
                      <NavLink
                        key={link.to}
                        component={Link}
                        to={link.to}
                        label={t(link.labelKey)}
                        active={pathname === link.to}
                        aria-current={pathname === link.to ? "page" : undefined}
                        onClick={onNavigate}
                      />
                    ))}
                  </Box>
                ) : null}
              </Box>
            );
          })}
          <NavLink
            component="button"
            type="button"
            label={t("dashboard.logout")}
            disabled={leaving}
            onClick={onLogout}
          />
        </Box>
        <StorageWarning />
        {orgs.length > 0 ? (
          <>
            <Divider my="sm" />
            <Text id="org-list-label" fz="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
              {t("menu.organizations")}
            </Text>
            <Stack
              component="ul"
              gap={2}
              aria-labelledby="org-list-label"
              style={{ listStyle: "none" }}
              p={0}
              m={0}
            >
              {orgs.map((org) => {
                const current = org.org_id === currentOrg?.org_id;
                return (
                  <li key={org.org_id}>
                    <UnstyledButton
                      className="org-switch"
                      data-current={current || undefined}
                      aria-pressed={current}
                      onClick={() => {
                        selectOrg(org.org_id);
                        onNavigate();
                      }}
                    >
                      <Avatar src={org.logo} size={24} radius="sm" color="blue" alt="">
                        {org.title.slice(0, 1).toUpperCase()}
                      </Avatar>
                      <Text fz="sm" truncate fw={current ? 700 : 400}>
                        {org.title}
                      </Text>
                    </UnstyledButton>
                  </li>
                );
              })}
            </Stack>
          </>
        ) : null}
      </ScrollArea>
    </Stack>
  );
}
