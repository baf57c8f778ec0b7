import { Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { BlogPostSummary } from "../../api/content.ts";
import { formatDate } from "../../ui/format/date.ts";

/** "March 3, 2026 · The Tarmac team" */
export function BlogByline({ post }: { post: BlogPostSummary }) {
  const { t, i18n } = useTranslation();
  const parts = [
    post.published_at
      ? t("blog.published", { date: formatDate(post.published_at, i18n.resolvedLanguage ?? "en") })
      : null,
    post.author ? t("blog.by", { author: post.author }) : null,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <Text fz="sm" c="dimmed">
      {parts.join(" · ")}
    </Text>
  );
}
