import { Anchor, Group, Text, VisuallyHidden } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { Version } from "../../api/applications.ts";
import { sourceLinks } from "./build-source.ts";

/** Branch, tag, commit and build type of a CI build, linked into the repository when possible. */
export function BuildSourceLine({ version }: { version: Version }) {
  const { t } = useTranslation();
  const links = sourceLinks(version);
  const tag = version.git_tag?.split(/\s+/)[0] ?? null;
  const parts = [
    { key: "branch", label: t("apps.source.branch"), text: version.git_branch, href: links.branch },
    { key: "tag", label: t("apps.source.tag"), text: tag, href: links.tag },
    {
      key: "commit",
      label: t("apps.source.commit"),
      text: version.git_commit?.slice(0, 8) ?? null,
      href: links.commit,
    },
    { key: "type", label: t("apps.source.build_type"), text: version.build_type, href: null },
  ].filter((part) => part.text);
  if (parts.length === 0) return null;
  return (
    <Group gap={6} wrap="wrap" maw={260}>
      {parts.map((part) => (
        <Text key={part.key} fz="xs" c="dimmed" title={part.label}>
          <VisuallyHidden>{part.label}: </VisuallyHidden>
          {part.href ? (
            <Anchor href={part.href} target="_blank" rel="noreferrer" fz="xs">
              {part.text}
            </Anchor>
          ) : (
            part.text
          )}
        </Text>
      ))}
    </Group>
  );
}
