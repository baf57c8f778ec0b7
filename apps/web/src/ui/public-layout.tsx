import {
  Anchor,
  Box,
  Burger,
  Container,
  Drawer,
  Group,
  Paper,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { contentKeys, fetchMenu, fetchSinglePage, type MenuItem, type MenuKind } from "../api/content.ts";
import { useContentLanguage } from "../api/use-content-language.ts";
import { useLoggedIn } from "../api/use-logged-in.ts";
import { BrandMark } from "./brand-mark.tsx";
import { HtmlBody } from "./html-body.tsx";
import { LanguageSelect } from "./language-select.tsx";

function useMenu(kind: MenuKind, enabled = true): MenuItem[] | null {
  const lang = useContentLanguage();
  const query = useQuery({
    queryKey: contentKeys.menu(kind, lang),
    queryFn: () => fetchMenu(kind, lang),
    enabled,
  });
  return query.data?.items ?? null;
}

/** A site path opens in the app; anything else is an ordinary link. */
function MenuLink({
  item,
  onClick,
  ...style
}: {
  item: MenuItem;
  onClick?: () => void;
  c?: string;
  fz?: string;
}) {
  return item.url.startsWith("/") ? (
    <Anchor component={Link} to={item.url} onClick={onClick} {...style}>
      {item.title}
    </Anchor>
  ) : (
    <Anchor href={item.url} onClick={onClick} {...style}>
      {item.title}
    </Anchor>
  );
}

export function PublicLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  const loggedIn = useLoggedIn();
  const [drawerOpen, drawer] = useDisclosure(false);
  // The site's pages (wide) carry the editors' menus and footer; the narrow forms (sign-in, sign-up,
  // install pages) keep to the two links every visitor needs, which also stand in while menus load.
  const mainMenu = useMenu("main-menu", wide) ?? [
    { title: t("nav.pricing"), url: "/pricing" },
    { title: t("nav.blog"), url: "/blog" },
  ];
  const mobileMenu = useMenu("mobile-menu", wide) ?? mainMenu;
  const accountLink = (
    <Anchor component={Link} to={loggedIn ? "/dashboard" : "/login"} fz="sm" fw={600}>
      {loggedIn ? t("nav.dashboard") : t("nav.login")}
    </Anchor>
  );
  return (
    <Box className="public-shell">
      <Box component="header" className="public-header">
        <Group justify="space-between" px={{ base: "md", sm: "xl" }} py="sm" wrap="nowrap">
          <Anchor component={Link} to="/promo" underline="never">
            <BrandMark />
            <VisuallyHidden>{` – ${t("nav.home")}`}</VisuallyHidden>
          </Anchor>
          <Group gap="md" wrap="nowrap">
            <Group gap="md" visibleFrom="sm" wrap="nowrap" component="nav" aria-label={t("nav.main_menu")}>
              {mainMenu.map((item) => (
                <MenuLink key={item.url} item={item} c="dark.6" fz="sm" />
              ))}
              {accountLink}
            </Group>
            <LanguageSelect />
            <Burger
              hiddenFrom="sm"
              size="sm"
              opened={drawerOpen}
              onClick={drawer.toggle}
              aria-label={t("nav.open_menu")}
            />
          </Group>
        </Group>
      </Box>
      {/* Mounted only while open: a closed drawer kept in the tree held up the sign-in page's
          render after signing out of the dashboard. */}
      {drawerOpen ? (
        <Drawer opened onClose={drawer.close} position="right" size="xs" title={t("nav.menu")}>
          <Stack gap="md" component="nav" aria-label={t("nav.mobile_menu")}>
            {mobileMenu.map((item) => (
              <MenuLink key={item.url} item={item} onClick={drawer.close} c="dark.7" />
            ))}
            {accountLink}
          </Stack>
        </Drawer>
      ) : null}
      <Container
        component="main"
        size={wide ? "lg" : 460}
        px={{ base: "md", sm: "xl" }}
        py={{ base: "lg", sm: 48 }}
      >
        {children}
      </Container>
      {wide ? <PublicFooter /> : null}
    </Box>
  );
}

function PublicFooter() {
  const { t } = useTranslation();
  const lang = useContentLanguage();
  const menu = useMenu("footer-menu");
  const footer = useQuery({
    queryKey: contentKeys.single("footer", lang),
    queryFn: () => fetchSinglePage("footer", lang),
  });
  if (!menu && !footer.data) return null;
  return (
    <Box component="footer" className="public-footer" px={{ base: "md", sm: "xl" }} py="xl">
      <Container size="lg" px={0}>
        <Stack gap="sm">
          {menu ? (
            <Group gap="lg" component="nav" aria-label={t("nav.footer_menu")}>
              {menu.map((item) => (
                <MenuLink key={item.url} item={item} c="dimmed" fz="sm" />
              ))}
            </Group>
          ) : null}
          {footer.data ? (
            <Text component="div" c="dimmed" fz="sm">
              <HtmlBody html={footer.data.html} />
            </Text>
          ) : null}
        </Stack>
      </Container>
    </Box>
  );
}

export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: "lg", sm: 32 }}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz={26}>
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" fz="sm">
              {subtitle}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
