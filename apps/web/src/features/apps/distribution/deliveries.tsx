// Recent send-to-testers batches with their delivery states; polled while mails are queued.
import { Badge, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { fetchRecipients, type TesterMailBatch, testerKeys } from "../../../api/testers.ts";
import { formatDateTime } from "../../../ui/format/date.ts";

/** Spec §9 polls task status every 5 s; queued mails are followed the same way. */
const POLL_MS = 5000;

export function hasQueued(batches: TesterMailBatch[] | undefined): boolean {
  return (batches ?? []).some((batch) => batch.queued > 0);
}

export function Deliveries({ appId }: { appId: number }) {
  const { t, i18n } = useTranslation();
  const query = useQuery({
    queryKey: testerKeys.recipients(appId, null),
    queryFn: () => fetchRecipients(appId, null),
    refetchInterval: (current) => (hasQueued(current.state.data?.batches) ? POLL_MS : false),
  });
  const batches = query.data?.batches ?? [];
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        {t("send.deliveries")}
      </Title>
      {batches.length === 0 ? (
        <Text c="dimmed">{t("send.no_deliveries")}</Text>
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={420}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("apps.date")}</Table.Th>
                  <Table.Th>{t("send.total")}</Table.Th>
                  <Table.Th>{t("send.state")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {batches.map((batch) => (
                  <Table.Tr key={batch.batch_id}>
                    <Table.Td>{formatDateTime(batch.created_at, i18n.language)}</Table.Td>
                    <Table.Td>{batch.total}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Badge color="green" variant="light">
                          {t("send.states.sent", { count: batch.sent })}
                        </Badge>
                        {batch.queued > 0 ? (
                          <Badge color="yellow" variant="light">
                            {t("send.states.queued", { count: batch.queued })}
                          </Badge>
                        ) : null}
                        {batch.failed > 0 ? (
                          <Badge color="red" variant="light">
                            {t("send.states.failed", { count: batch.failed })}
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </Stack>
  );
}
