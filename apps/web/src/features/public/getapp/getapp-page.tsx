// The public install page /getapp/{key} (spec §2): phone first, the visitor's own platform on top.
import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { ApiError } from "../../../api/client.ts";
import { distributionKeys, fetchGetapp, type GetappPage } from "../../../api/distribution.ts";
import { loginPathFor } from "../../../api/next-path.ts";
import { useLoggedIn } from "../../../api/use-logged-in.ts";
import { Alert } from "../../../ui/alert.tsx";
import { AppIcon } from "../../../ui/app-icon.tsx";
import {
  buildPlatformFor,
  isHandheld,
  orderBuilds,
  readVisitorDevice,
} from "../../../ui/install-platform.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageLoader } from "../../../ui/page-loader.tsx";
import { AuthCard, PublicLayout } from "../../../ui/public-layout.tsx";
import { TextBody } from "../../../ui/text-body.tsx";
import { useDocumentTitle } from "../../../ui/use-document-title.ts";
import { QrCode } from "../qr-code.tsx";
import { BuildInstall } from "./build-install.tsx";
import { HttpsNotice, InAppBrowserNotice } from "./install-notices.tsx";
import { PasswordForm, readAccessToken } from "./password-form.tsx";

/** The part after /getapp/ is the link's key. */
export function GetAppPage() {
  const { t } = useTranslation();
  const key = useParams()["*"]?.replace(/\/+$/, "") ?? "";
  useDocumentTitle(t("getapp.title"));
  return <PublicLayout>{key ? <InstallView key={key} linkKey={key} /> : <DownloadKeyForm />}</PublicLayout>;
}

function DownloadKeyForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [value, setValue] = useState("");
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const key = value.trim();
    if (key) navigate(`/getapp/${encodeURIComponent(key)}`);
  };
  return (
    <AuthCard title={t("getapp.title")} subtitle={t("getapp.description")}>
      <form onSubmit={submit}>
        <Stack gap="md">
          <TextInput
            label={t("getapp.code")}
            name="code"
            autoComplete="off"
            required
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
          />
          <Button type="submit" fullWidth size="md">
            {t("getapp.open")}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

function bodyFlag(error: ApiError, flag: string): boolean {
  return (
    typeof error.body === "object" &&
    error.body !== null &&
    (error.body as Record<string, unknown>)[flag] === true
  );
}

function InstallView({ linkKey }: { linkKey: string }) {
  const { t } = useTranslation();
  const [token, setToken] = useState(() => readAccessToken(linkKey));
  const query = useQuery({
    queryKey: distributionKeys.getapp(linkKey, token),
    queryFn: () => fetchGetapp(linkKey, token),
  });
  useDocumentTitle(query.data?.title ?? t("getapp.title"));

  if (query.isPending) return <PageLoader />;
  if (query.isError) {
    const error = query.error;
    if (!(error instanceof ApiError)) return <LoadError onRetry={() => void query.refetch()} />;
    if (error.status === 404) return <Notice text={t("getapp.not_found")} />;
    if (error.status === 403 && bodyFlag(error, "login_required")) return <MembersOnly />;
    if (error.status === 410) {
      // The server still names the app the link was for.
      const body = error.body as Partial<GetappPage> | null;
      const text = bodyFlag(error, "limit_reached") ? t("install.limit_reached") : t("install.expired");
      return <Notice text={text} title={body?.title} />;
    }
    return <LoadError onRetry={() => void query.refetch()} />;
  }
  const page = query.data;
  if (page.expired) return <Notice text={t("install.expired")} />;
  if (page.limit_reached) return <Notice text={t("install.limit_reached")} />;
  if (page.needs_password) {
    return (
      <AppCard page={page}>
        <PasswordForm linkKey={linkKey} onUnlocked={setToken} />
      </AppCard>
    );
  }
  return <InstallDetails page={page} linkKey={linkKey} />;
}

function Notice({ text, title }: { text: string; title?: string }) {
  const { t } = useTranslation();
  return (
    <AuthCard title={title || t("getapp.title")}>
      <Text c="dimmed">{text}</Text>
    </AuthCard>
  );
}

function MembersOnly() {
  const { t } = useTranslation();
  const location = useLocation();
  const loggedIn = useLoggedIn();
  return (
    <AuthCard title={t("getapp.title")}>
      <Text c="dimmed">{loggedIn ? t("install.no_access") : t("install.members_only")}</Text>
      {loggedIn ? null : (
        <Button component={Link} to={loginPathFor(`${location.pathname}${location.search}`)} fullWidth>
          {t("install.sign_in")}
        </Button>
      )}
    </AuthCard>
  );
}

function AppCard({ page, children }: { page: GetappPage; children: React.ReactNode }) {
  return (
    <Stack gap="lg">
      <Group gap="md" wrap="nowrap" align="center">
        <AppIcon src={page.icon} appType={page.builds[0]?.app_type ?? null} title={page.title} size={64} />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Title order={1} fz={24} style={{ overflowWrap: "anywhere" }}>
            {page.title}
          </Title>
          {page.organization ? (
            <Text c="dimmed" fz="sm">
              {page.organization}
            </Text>
          ) : null}
        </Stack>
      </Group>
      {children}
    </Stack>
  );
}

function InstallDetails({ page, linkKey }: { page: GetappPage; linkKey: string }) {
  const { t } = useTranslation();
  const visitor = useMemo(() => readVisitorDevice(), []);
  const { primary, others } = orderBuilds(page.builds, visitor.device);
  const onApple = visitor.device === "iphone" || visitor.device === "ipad";
  // A known device with no build of its own: say so plainly rather than offer a file it cannot use.
  const deviceKnown = buildPlatformFor(visitor.device) !== null;
  const notForThisDevice = deviceKnown && !primary && page.builds.length > 0;
  const platformNames = others.map((build) => t(`platforms.${build.platform}`)).join(", ");
  const pageUrl = `${window.location.origin}/getapp/${encodeURIComponent(linkKey)}`;
  return (
    <AppCard page={page}>
      <InAppBrowserNotice device={visitor.device} browser={visitor.inAppBrowser} />
      {onApple && !page.https && page.builds.some((build) => build.platform === "ios") ? (
        <HttpsNotice />
      ) : null}
      {page.builds.length === 0 ? <Text c="dimmed">{t("install.no_builds")}</Text> : null}
      {notForThisDevice ? (
        <Alert
          type="info"
          message={t("install.not_for_device", {
            device: t(`install.devices.${visitor.device}`),
            platforms: platformNames,
          })}
          timeout={0}
          dismissible={false}
        />
      ) : null}
      {primary ? <BuildInstall build={primary} device={visitor.device} primary https={page.https} /> : null}
      {others.length > 0 ? (
        <Stack gap="sm">
          {primary ? (
            <Text fw={600} fz="sm">
              {t("install.other_platforms")}
            </Text>
          ) : null}
          {others.map((build) => (
            <BuildInstall
              key={build.id}
              build={build}
              device={visitor.device}
              primary={!primary && !deviceKnown && others.length === 1}
              https={page.https}
            />
          ))}
        </Stack>
      ) : null}
      {isHandheld(visitor.device) && !notForThisDevice ? null : (
        <Stack gap="xs" align="center">
          <QrCode value={pageUrl} label={t("install.qr_label")} />
          <Text fz="sm" c="dimmed" ta="center">
            {t("install.qr_hint")}
          </Text>
        </Stack>
      )}
      {page.description ? <TextBody text={page.description} /> : null}
    </AppCard>
  );
}
