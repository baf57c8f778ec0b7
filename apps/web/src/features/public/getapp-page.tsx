import { Badge, Button, Group, Image, Stack, Text, TextInput } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { ApiError } from "../../api/client.ts";
import { type DownloadInfo, fetchDownload } from "../../api/content.ts";
import { queryKeys } from "../../api/query-keys.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { AuthCard, PublicLayout } from "../../ui/public-layout.tsx";
import { TextBody } from "../../ui/text-body.tsx";
import { useDocumentTitle } from "../../ui/use-document-title.ts";

const PLATFORM_KEYS: Record<number, string> = {
  0: "platforms.android",
  1: "platforms.ios",
  2: "platforms.windows",
  3: "platforms.macos",
};

/** The public download page; the part after /getapp/ is the app's download key. */
export function GetAppPage() {
  const { t } = useTranslation();
  const key = useParams()["*"]?.replace(/\/+$/, "") ?? "";
  useDocumentTitle(t("getapp.title"));
  return <PublicLayout>{key ? <DownloadCard downloadKey={key} /> : <DownloadKeyForm />}</PublicLayout>;
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

function DownloadCard({ downloadKey }: { downloadKey: string }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: queryKeys.download(downloadKey),
    queryFn: () => fetchDownload(downloadKey),
  });
  useDocumentTitle(query.data?.title ?? t("getapp.title"));

  if (query.isPending) return <PageLoader />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return (
        <AuthCard title={t("getapp.title")}>
          <Text c="dimmed">{t("getapp.not_found")}</Text>
        </AuthCard>
      );
    }
    return <LoadError onRetry={() => void query.refetch()} />;
  }
  return <DownloadDetails info={query.data} />;
}

function DownloadDetails({ info }: { info: DownloadInfo }) {
  const { t } = useTranslation();
  const platformKey =
    info.app_type === null || info.app_type === undefined ? null : PLATFORM_KEYS[info.app_type];
  return (
    <AuthCard title={info.title}>
      <Group gap="md" wrap="nowrap" align="center">
        {info.icon ? <Image src={info.icon} alt="" w={64} h={64} radius="md" /> : null}
        <Stack gap={4}>
          {platformKey ? <Badge variant="light">{t(platformKey)}</Badge> : null}
          {info.version ? <Text fz="sm">{t("getapp.version", { version: info.version })}</Text> : null}
          {info.build_version_number !== null && info.build_version_number !== undefined ? (
            <Text fz="sm" c="dimmed">
              {t("getapp.build", { build: info.build_version_number })}
            </Text>
          ) : null}
        </Stack>
      </Group>
      {info.description ? <TextBody text={info.description} /> : null}
      {info.download_url ? (
        <Button component="a" href={info.download_url} fullWidth size="md">
          {t("getapp.download")}
        </Button>
      ) : (
        <Text c="dimmed">{t("getapp.no_file")}</Text>
      )}
    </AuthCard>
  );
}
