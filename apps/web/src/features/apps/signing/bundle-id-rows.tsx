// Pairs of bundle ids to rewrite while re-signing: the old id as the build has it, the new one.
import { ActionIcon, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";

export interface BundleIdPair {
  old: string;
  next: string;
}

export function bundleIdMapping(pairs: BundleIdPair[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const pair of pairs) {
    if (pair.old.trim() && pair.next.trim()) mapping[pair.old.trim()] = pair.next.trim();
  }
  return mapping;
}

export function BundleIdRows({
  pairs,
  onChange,
  disabled,
}: {
  pairs: BundleIdPair[];
  onChange: (pairs: BundleIdPair[]) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const update = (index: number, change: Partial<BundleIdPair>) =>
    onChange(pairs.map((pair, at) => (at === index ? { ...pair, ...change } : pair)));
  return (
    <Stack gap={6}>
      <Text fz="sm" fw={500}>
        {t("resign_ios.bundle_ids")}
      </Text>
      <Text fz="xs" c="dimmed">
        {t("resign_ios.bundle_ids_hint")}
      </Text>
      {pairs.map((pair, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity besides their place
        <Group key={index} gap="xs" wrap="nowrap">
          <TextInput
            aria-label={t("resign_ios.old_bundle_id")}
            placeholder="com.example.app"
            value={pair.old}
            disabled={disabled}
            onChange={(event) => update(index, { old: event.currentTarget.value })}
            style={{ flex: 1 }}
          />
          <span aria-hidden="true">→</span>
          <TextInput
            aria-label={t("resign_ios.new_bundle_id")}
            placeholder="com.example.beta"
            value={pair.next}
            disabled={disabled}
            onChange={(event) => update(index, { next: event.currentTarget.value })}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            aria-label={t("resign_ios.remove_bundle_id")}
            disabled={disabled}
            onClick={() => onChange(pairs.filter((_, at) => at !== index))}
          >
            <span aria-hidden="true">×</span>
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="subtle"
          size="xs"
          disabled={disabled}
          onClick={() => onChange([...pairs, { old: "", next: "" }])}
        >
          {t("resign_ios.add_bundle_id")}
        </Button>
      </Group>
    </Stack>
  );
}
