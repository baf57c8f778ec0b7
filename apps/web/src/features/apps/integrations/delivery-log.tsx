// The deliveries of one webhook or chat channel: how each endpoint answered, with redelivery.
import {
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import {
  fetchDeliveries,
  integrationKeys,
  type LogOwner,
  redeliver,
  type WebhookDelivery,
} from "../../../api/integrations.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { formatDateTime } from "../../../ui/format/date.ts";
import { LoadError } from "../../../ui/load-error.tsx";

/** Pending deliveries are followed until they settle; their first retry comes after 5 s. */
const POLL_MS = 5000;

const statusColors: Record<WebhookDelivery["status"], string> = {
  succeeded: "green",
  pending: "yellow",
  failed: "red",
};

export function DeliveryLog({ owner, label }: { owner: LogOwner; label: string }) {
  const { t, i18n } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const key = integrationKeys.deliveries(owner);
  const query = useQuery({
    queryKey: key,
    queryFn: () => fetchDeliveries(owner),
    refetchInterval: (current) =>
      current.state.data?.results.some((row) => row.status === "pending") ? POLL_MS : false,
  });
  const again = useMutation({
    mutationFn: redeliver,
    onSuccess: (row) => {
      void queryClient.invalidateQueries({ queryKey: key });
      alerts.show({
        type: row.status === "succeeded" ? "success" : "error",
        message: t(
          row.status === "succeeded" ? "integrations.redelivered" : "integrations.redelivery_failed",
        ),
      });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  if (query.isPending) return <Text c="dimmed">{t("common.loading")}</Text>;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  const rows = query.data.results;
  if (rows.length === 0) return <Text c="dimmed">{t("integrations.no_deliveries")}</Text>;
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("apps.date")}</Table.Th>
              <Table.Th>{t("integrations.event")}</Table.Th>
              <Table.Th>{t("integrations.status")}</Table.Th>
              <Table.Th>{t("integrations.answer")}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t("integrations.actions")}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id} data-testid="delivery-row">
                <Table.Td>{formatDateTime(row.created_at, i18n.language)}</Table.Td>
                <Table.Td>
                  <Code>{row.event_type}</Code>
                  {row.redelivery_of ? (
                    <Text fz="xs" c="dimmed">
                      {t("integrations.redelivery")}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    <Badge color={statusColors[row.status]} variant="light">
                      {t(`integrations.statuses.${row.status}`)}
                    </Badge>
                    <Text fz="xs" c="dimmed">
                      {t("integrations.attempts", { count: row.attempts })}
                      {row.next_attempt_at
                        ? ` · ${t("integrations.next_attempt", { time: formatDateTime(row.next_attempt_at, i18n.language) })}`
                        : ""}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td maw={320}>
                  <Text fz="sm">
                    {row.response_status ?? "—"}
                    {row.duration_ms !== null ? ` · ${row.duration_ms} ms` : ""}
                  </Text>
                  {row.error || row.response_body ? (
                    <Tooltip label={row.error || row.response_body} multiline maw={360}>
                      <Text fz="xs" c="dimmed" lineClamp={2}>
                        {row.error || row.response_body}
                      </Text>
                    </Tooltip>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    <Button
                      size="xs"
                      variant="default"
                      loading={again.isPending && again.variables === row.id}
                      onClick={() => again.mutate(row.id)}
                    >
                      {t("integrations.redeliver")}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
