// Administration → Site content: every entry of the public site (landing, menus, pages, FAQ,
// what's new, dashboard texts, redirects, blog posts) in each language, drafts included.
import { Badge, Button, Group, Select, Stack, Table, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  CONTENT_ENTRIES_PAGE_SIZE,
  type ContentEntry,
  type ContentKind,
  type ContentLanguage,
  contentKeys,
  contentKinds,
  contentLanguages,
  fetchContentEntries,
} from "../../api/content.ts";
import { formatDateTime } from "../../ui/format/date.ts";
import { ListTable } from "../../ui/list-table.tsx";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { PageFrame, ProfileGate } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { useSettledSearch } from "../../ui/use-settled-search.ts";
import { ContentEntryDialog } from "./content-entry-dialog.tsx";

export function ContentEditorPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("content_admin.title")} description={t("content_admin.description")}>
      <ProfileGate>
        {(profile) =>
          profile.is_instance_admin ? <ContentEntries /> : <Text c="dimmed">{t("admin.not_admin")}</Text>
        }
      </ProfileGate>
    </PageFrame>
  );
}

/** The entry being edited: an existing one, or a new one (null id). */
type Editing = { entry: ContentEntry | null } | null;

function ContentEntries() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<ContentKind | null>(null);
  const [language, setLanguage] = useState<ContentLanguage | null>(null);
  const resetPage = useCallback(() => setPage(1), []);
  const { typed, setTyped, search } = useSettledSearch(resetPage);
  const [editing, setEditing] = useState<Editing>(null);
  const filter = { kind, language, search, page };
  const query = useQuery({
    queryKey: contentKeys.entries(filter),
    queryFn: () => fetchContentEntries(filter),
  });
  const count = query.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / CONTENT_ENTRIES_PAGE_SIZE));

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t("content_admin.kind")}
          data={contentKinds.map((value) => ({ value, label: t(`content_admin.kinds.${value}`) }))}
          value={kind}
          onChange={(value) => {
            setKind(value as ContentKind | null);
            setPage(1);
          }}
          clearable
          placeholder={t("content_admin.all_kinds")}
          w={220}
        />
        <Select
          label={t("content_admin.language")}
          data={contentLanguages.map((value) => ({ value, label: t(`language_names.${value}`) }))}
          value={language}
          onChange={(value) => {
            setLanguage(value as ContentLanguage | null);
            setPage(1);
          }}
          clearable
          placeholder={t("content_admin.all_languages")}
          w={180}
        />
        <TextInput
          type="search"
          label={t("content_admin.search")}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          w={{ base: "100%", xs: 260 }}
        />
        <Button onClick={() => setEditing({ entry: null })} ml="auto">
          {t("content_admin.new")}
        </Button>
      </Group>
      {query.isPending ? <PageLoader /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.results.length === 0 ? (
        <Text c="dimmed">{t("content_admin.empty")}</Text>
      ) : null}
      {query.data && query.data.results.length > 0 ? (
        <ListTable
          minWidth={760}
          headings={[
            t("content_admin.kind"),
            t("content_admin.slug"),
            t("content_admin.language"),
            t("content_admin.title_field"),
            t("content_admin.status"),
            t("content_admin.updated"),
            <VisuallyHidden key="actions">{t("admin.actions")}</VisuallyHidden>,
          ]}
        >
          {query.data.results.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td fz="sm">{t(`content_admin.kinds.${entry.kind}`)}</Table.Td>
              <Table.Td fz="sm" ff="monospace">
                {entry.slug}
              </Table.Td>
              <Table.Td fz="sm">{entry.language}</Table.Td>
              <Table.Td fz="sm">{entry.title}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={entry.status === "published" ? "green" : "gray"}>
                  {t(`content_admin.statuses.${entry.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td fz="sm">{formatDateTime(entry.updated_at, i18n.resolvedLanguage ?? "en")}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setEditing({ entry })}
                  aria-label={t("content_admin.edit_named", {
                    name: `${entry.kind} ${entry.slug} (${entry.language})`,
                  })}
                >
                  {t("content_admin.edit")}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      ) : null}
      <PageControls pages={pages} page={page} onChange={setPage} />
      {editing ? <ContentEntryDialog entry={editing.entry} onClose={() => setEditing(null)} /> : null}
    </Stack>
  );
}
