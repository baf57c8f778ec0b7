import { Stack, Text } from "@mantine/core";

/**
 * Content bodies are shown as plain text split into paragraphs: the server's text never becomes
 * markup, so stored content cannot inject scripts.
 */
export function TextBody({ text }: { text: string }) {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
  return (
    <Stack gap="sm">
      {paragraphs.map((paragraph, index) => (
        // Paragraphs have no identity of their own; their position is stable for one text.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Text key={index} style={{ whiteSpace: "pre-line" }}>
          {paragraph}
        </Text>
      ))}
    </Stack>
  );
}
