// Profile → single sign-on: the organizations whose sign-in opens this account (each can be
// unlinked), the one that proved the address's domain and may be linked, and the note that a
// link just finished (`?sso_linked=`, where the provider sent the browser back).
import { Button, Group, Paper, Stack, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { fetchSsoLinks, type SsoLinks, ssoLinkKeys, startSsoLink, unlinkSso } from "../../api/sso.ts";
import { Alert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { formatDate } from "../../ui/format/date.ts";
import { LoadError } from "../../ui/load-error.tsx";

type Linked = SsoLinks["linked"][number];

export function SsoLinksSection() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: ssoLinkKeys.mine(), queryFn: fetchSsoLinks });
  const [unlinking, setUnlinking] = useState<Linked | null>(null);
  if (query.isPending) return <Text c="dimmed">{t("common.loading")}</Text>;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  const { linked, linkable } = query.data;
  return (
    <Stack gap="md" maw={720}>
      <LinkedNotice links={query.data} />
      <Text fz="sm" c="dimmed">
        {t("sso_links.intro")}
      </Text>
      {linked.length === 0 && linkable.length === 0 ? <Text c="dimmed">{t("sso_links.none")}</Text> : null}
      {linked.map((link) => (
        <LinkedRow key={link.organization.id} link={link} onUnlink={() => setUnlinking(link)} />
      ))}
      {linkable.map(({ organization }) => (
        <LinkableRow key={organization.id} organizationId={organization.id} title={organization.title} />
      ))}
      <UnlinkDialog link={unlinking} onClose={() => setUnlinking(null)} />
    </Stack>
  );
}

/** Back from the provider after linking: says which organization's sign-in opens the account now. */
function LinkedNotice({ links }: { links: SsoLinks }) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const subdomain = searchParams.get("sso_linked");
  if (!subdomain) return null;
  const title = links.linked.find((link) => link.organization.subdomain === subdomain)?.organization.title;
  const forget = () =>
    setSearchParams(
      (current) => {
        current.delete("sso_linked");
        return current;
      },
      { replace: true },
    );
  return (
    <Alert
      type="success"
      message={t("sso_links.linked_now", { organization: title ?? subdomain })}
      timeout={0}
      onClose={forget}
    />
  );
}

function LinkedRow({ link, onUnlink }: { link: Linked; onUnlink: () => void }) {
  const { t, i18n } = useTranslation();
  const organization = link.organization.title;
  const since = formatDate(link.since, i18n.language);
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" gap="sm">
        <Stack gap={2}>
          <Text fw={600}>{organization}</Text>
          <Text fz="sm" c="dimmed">
            {link.origin === "created"
              ? t("sso_links.created", { date: since })
              : t("sso_links.linked", { date: since })}
          </Text>
        </Stack>
        <Button
          size="xs"
          variant="default"
          onClick={onUnlink}
          aria-label={t("sso_links.unlink_from", { organization })}
        >
          {t("sso_links.unlink")}
        </Button>
      </Group>
    </Paper>
  );
}

function LinkableRow({ organizationId, title }: { organizationId: number; title: string }) {
  const { t } = useTranslation();
  const start = useMutation({
    mutationFn: () => startSsoLink(organizationId),
    // The organization's provider asks who the person is, then sends the browser back here.
    onSuccess: ({ url }) => window.location.assign(url),
  });
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Text fz="sm">{t("sso_links.linkable", { organization: title })}</Text>
        {start.isError ? <Alert type="error" message={describeError(start.error, t)} timeout={0} /> : null}
        <Button
          style={{ alignSelf: "flex-start" }}
          loading={start.isPending || start.isSuccess}
          onClick={() => start.mutate()}
          aria-label={t("sso_links.link_to", { organization: title })}
        >
          {t("sso_links.link")}
        </Button>
      </Stack>
    </Paper>
  );
}

function UnlinkDialog({ link, onClose }: { link: Linked | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const organization = link?.organization.title ?? "";
  const unlink = useMutation({
    mutationFn: (organizationId: number) => unlinkSso(organizationId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ssoLinkKeys.mine() });
      onClose();
    },
  });
  const close = () => {
    unlink.reset();
    onClose();
  };
  return (
    <>
      {/* A refusal (no password to fall back on) stays on the page after the dialog closes. */}
      {unlink.isError && link === null ? (
        <Alert type="error" message={describeError(unlink.error, t)} timeout={0} onClose={unlink.reset} />
      ) : null}
      <ConfirmDialog
        opened={link !== null}
        title={t("sso_links.unlink_title", { organization })}
        message={t("sso_links.unlink_confirm", { organization })}
        confirmLabel={t("sso_links.unlink")}
        busy={unlink.isPending}
        onConfirm={() => link && unlink.mutate(link.organization.id, { onError: onClose })}
        onClose={close}
      />
    </>
  );
}
