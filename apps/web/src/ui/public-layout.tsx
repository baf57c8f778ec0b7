import { Anchor, Box, Container, Group, Paper, Stack, Text, Title, VisuallyHidden } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLoggedIn } from "../api/use-logged-in.ts";
import { BrandMark } from "./brand-mark.tsx";
import { LanguageSelect } from "./language-select.tsx";

export function PublicLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  const loggedIn = useLoggedIn();
  return (
    <Box className="public-shell">
      <Box component="header" className="public-header">
        <Group justify="space-between" px={{ base: "md", sm: "xl" }} py="sm" wrap="nowrap">
          <Anchor component={Link} to="/promo" underline="never">
            <BrandMark />
            <VisuallyHidden>{` – ${t("nav.home")}`}</VisuallyHidden>
          </Anchor>
          <Group gap="md" wrap="nowrap">
            <Group gap="md" visibleFrom="xs" wrap="nowrap">
              <Anchor component={Link} to="/pricing" c="dark.6" fz="sm">
                {t("nav.pricing")}
              </Anchor>
              <Anchor component={Link} to="/blog" c="dark.6" fz="sm">
                {t("nav.blog")}
              </Anchor>
              <Anchor component={Link} to={loggedIn ? "/dashboard" : "/login"} fz="sm" fw={600}>
                {loggedIn ? t("nav.dashboard") : t("nav.login")}
              </Anchor>
            </Group>
            <LanguageSelect />
          </Group>
        </Group>
      </Box>
      <Container
        component="main"
        size={wide ? "lg" : 460}
        px={{ base: "md", sm: "xl" }}
        py={{ base: "lg", sm: 48 }}
      >
        {children}
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
