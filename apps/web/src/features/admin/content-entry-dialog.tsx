// One entry of the site content: Markdown with a preview rendered (and sanitized) by the server
// exactly as visitors will get it, its status, and the fields its kind uses.
import {
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type ContentEntry,
  type ContentEntryInput,
  type ContentKind,
  type ContentLanguage,
  contentKeys,
  contentKinds,
  contentLanguages,
  deleteContentEntry,
  previewMarkdown,
  saveContentEntry,
} from "../../api/content.ts";
import { readFormErrors } from "../../api/form-errors.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { HtmlBody } from "../../ui/html-body.tsx";

const fieldNames = [
  "kind",
  "slug",
  "language",
  "status",
  "title",
  "summary",
  "body",
  "seo_title",
  "meta_description",
  "social_image",
  "author",
  "cover_image",
] as const;

/** Kinds shown as a page, whose SEO fields feed the link previews. */
const seoKinds = new Set<ContentKind>(["lp", "page", "page-sdk", "blog"]);

function initialInput(entry: ContentEntry | null): ContentEntryInput {
  return {
    kind: entry?.kind ?? "page",
    slug: entry?.slug ?? "",
    language: entry?.language ?? "en",
    status: entry?.status ?? "draft",
    title: entry?.title ?? "",
    summary: entry?.summary ?? "",
    body: entry?.body ?? "",
    seo_title: entry?.seo_title ?? null,
    meta_description: entry?.meta_description ?? null,
    social_image: entry?.social_image ?? null,
    author: entry?.author ?? null,
    cover_image: entry?.cover_image ?? null,
  };
}

export function ContentEntryDialog({ entry, onClose }: { entry: ContentEntry | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const [input, setInput] = useState(() => initialInput(entry));
  const [tab, setTab] = useState<string | null>("write");
  const [preview, setPreview] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const set = <Key extends keyof ContentEntryInput>(key: Key, value: ContentEntryInput[Key]) =>
    setInput((current) => ({ ...current, [key]: value }));
  const text = (key: keyof ContentEntryInput) => (input[key] as string | null) ?? "";

  const refresh = () => queryClient.invalidateQueries({ queryKey: contentKeys.all() });
  const save = useMutation({
    mutationFn: () => saveContentEntry(entry?.id ?? null, input),
    onSuccess: async () => {
      await refresh();
      alerts.show({ type: "success", message: t("content_admin.saved") });
      onClose();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteContentEntry(entry?.id ?? 0),
    onSuccess: async () => {
      await refresh();
      alerts.show({ type: "success", message: t("content_admin.deleted") });
      onClose();
    },
  });
  const render = useMutation({ mutationFn: () => previewMarkdown(input.body), onSuccess: setPreview });
  const errors = save.error ? readFormErrors(save.error, fieldNames, t("errors.server")) : null;
  const fieldError = (key: (typeof fieldNames)[number]) => errors?.fields[key];

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={entry ? t("content_admin.edit_title") : t("content_admin.new_title")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <Stack
        gap="md"
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label={t("content_admin.kind")}
            data={contentKinds.map((value) => ({ value, label: t(`content_admin.kinds.${value}`) }))}
            value={input.kind}
            onChange={(value) => value && set("kind", value as ContentKind)}
            allowDeselect={false}
            error={fieldError("kind")}
          />
          <TextInput
            label={t("content_admin.slug")}
            description={t(
              input.kind === "redirect" ? "content_admin.slug_redirect" : "content_admin.slug_help",
            )}
            value={input.slug}
            onChange={(event) => set("slug", event.currentTarget.value)}
            required
            error={fieldError("slug")}
          />
          <Select
            label={t("content_admin.language")}
            data={contentLanguages.map((value) => ({ value, label: t(`language_names.${value}`) }))}
            value={input.language}
            onChange={(value) => value && set("language", value as ContentLanguage)}
            allowDeselect={false}
            error={fieldError("language")}
          />
        </SimpleGrid>
        <TextInput
          label={t("content_admin.title_field")}
          value={input.title}
          onChange={(event) => set("title", event.currentTarget.value)}
          error={fieldError("title")}
        />
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="write">{t("content_admin.write")}</Tabs.Tab>
            <Tabs.Tab value="preview" onClick={() => render.mutate()}>
              {t("content_admin.preview")}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="write" pt="sm">
            <Textarea
              aria-label={t(input.kind === "redirect" ? "content_admin.target" : "content_admin.body")}
              description={t(`content_admin.body_help.${input.kind}`, {
                defaultValue: t("content_admin.body_help.default"),
              })}
              value={input.body}
              onChange={(event) => set("body", event.currentTarget.value)}
              autosize
              minRows={10}
              maxRows={24}
              styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
              error={fieldError("body")}
            />
          </Tabs.Panel>
          <Tabs.Panel value="preview" pt="sm" data-testid="content-preview">
            {render.isPending ? <Text c="dimmed">{t("common.loading")}</Text> : null}
            {render.isError ? <Text c="red.8">{t("errors.server")}</Text> : null}
            {preview !== null && !render.isPending ? <HtmlBody html={preview} /> : null}
          </Tabs.Panel>
        </Tabs>
        {seoKinds.has(input.kind) ? (
          <Textarea
            label={t("content_admin.summary")}
            value={input.summary}
            onChange={(event) => set("summary", event.currentTarget.value)}
            autosize
            minRows={2}
            error={fieldError("summary")}
          />
        ) : null}
        {input.kind === "blog" ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t("content_admin.author")}
              value={text("author")}
              onChange={(event) => set("author", event.currentTarget.value)}
              error={fieldError("author")}
            />
            <TextInput
              label={t("content_admin.cover_image")}
              value={text("cover_image")}
              onChange={(event) => set("cover_image", event.currentTarget.value)}
              error={fieldError("cover_image")}
            />
          </SimpleGrid>
        ) : null}
        {seoKinds.has(input.kind) ? (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label={t("content_admin.seo_title")}
              value={text("seo_title")}
              onChange={(event) => set("seo_title", event.currentTarget.value)}
              error={fieldError("seo_title")}
            />
            <TextInput
              label={t("content_admin.meta_description")}
              value={text("meta_description")}
              onChange={(event) => set("meta_description", event.currentTarget.value)}
              error={fieldError("meta_description")}
            />
            <TextInput
              label={t("content_admin.social_image")}
              value={text("social_image")}
              onChange={(event) => set("social_image", event.currentTarget.value)}
              error={fieldError("social_image")}
            />
          </SimpleGrid>
        ) : null}
        <SegmentedControl
          aria-label={t("content_admin.status")}
          value={input.status}
          onChange={(value) => set("status", value as ContentEntryInput["status"])}
          data={[
            { value: "draft", label: t("content_admin.statuses.draft") },
            { value: "published", label: t("content_admin.statuses.published") },
          ]}
        />
        {errors?.general ? (
          <Text c="red.8" fz="sm" role="alert">
            {errors.general}
          </Text>
        ) : null}
        <Group justify="space-between">
          {entry ? (
            <Button variant="subtle" color="red" onClick={() => setConfirmDelete(true)}>
              {t("content_admin.delete")}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm">
            <Button variant="default" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t("common.save")}
            </Button>
          </Group>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirmDelete}
        title={t("content_admin.delete_title")}
        message={t("content_admin.delete_message")}
        confirmLabel={t("content_admin.delete")}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirmDelete(false)}
      />
    </Modal>
  );
}
