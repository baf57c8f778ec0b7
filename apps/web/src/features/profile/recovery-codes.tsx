import { Button, Code, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { copyText, downloadText } from "../../ui/copy.ts";

/** Recovery codes are shown once: the user copies or downloads them, then closes the panel. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const text = codes.join("\n");
  return (
    <Stack gap="sm">
      <Text fz="sm" fw={600}>
        {t("twofa.codes_intro")}
      </Text>
      <SimpleGrid
        cols={{ base: 2, sm: 5 }}
        spacing="xs"
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: "none" }}
        aria-label={t("twofa.codes_label")}
      >
        {codes.map((code) => (
          <li key={code}>
            <Code fz="sm">{code}</Code>
          </li>
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <Button
          variant="light"
          size="xs"
          onClick={async () => {
            if (await copyText(text)) alerts.show({ type: "success", message: t("COPIED TO CLIPBOARD") });
          }}
        >
          {t("twofa.copy_codes")}
        </Button>
        <Button
          variant="light"
          size="xs"
          onClick={() => downloadText("tarmac-recovery-codes.txt", `${text}\n`)}
        >
          {t("twofa.download_codes")}
        </Button>
        <Button size="xs" onClick={onDone}>
          {t("twofa.codes_saved")}
        </Button>
      </Group>
    </Stack>
  );
}
