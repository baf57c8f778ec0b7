import { Anchor, Badge, Button, Group, Stack, Table, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { accountKeys, type DataExport, fetchDataExports, requestDataExport } from "../../api/account.ts";
import { Alert } from "../../ui/alert.tsx";
import { describeError } from "../../ui/error-text.ts";
import { formatDate } from "../../ui/format/date.ts";
import { LoadError } from "../../ui/load-error.tsx";

const EXPORT_POLL_MS = 5000;
const STATUS_COLORS: Record<string, string> = {
  pending: "yellow",
  ready: "green",
  failed: "red",
};

function isUnfinished(item: DataExport): boolean {
  return item.status === "pending";
}

export function DataExportSection() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: accountKeys.dataExports(),
    queryFn: fetchDataExports,
    // An export in progress is checked again until it finishes.
    refetchInterval: (query) => ((query.state.data ?? []).some(isUnfinished) ? EXPORT_POLL_MS : false),
  });
  const request = useMutation({
    mutationFn: requestDataExport,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.dataExports() }),
  });
  const items = list.data ?? [];
  const language = i18n.resolvedLanguage ?? "en";

  return (
    <Stack gap="sm">
      <Text fz="sm" c="dimmed">
        {t("export.description")}
      </Text>
      {request.isError ? <Alert type="error" message={describeError(request.error, t)} timeout={0} /> : null}
      <Button
        variant="light"
        style={{ alignSelf: "flex-start" }}
        loading={request.isPending}
        disabled={items.some(isUnfinished)}
        onClick={() => request.mutate()}
      >
        {t("export.request")}
      </Button>
      {list.isError ? <LoadError onRetry={() => void list.refetch()} /> : null}
      {list.data && items.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t("export.none")}
        </Text>
      ) : null}
      {items.length > 0 ? (
        <Table.ScrollContainer minWidth={420}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("export.requested")}</Table.Th>
                <Table.Th>{t("export.status")}</Table.Th>
                <Table.Th>{t("export.file")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>{formatDate(item.created_at, language)}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[item.status] ?? "gray"} variant="light">
                      {t(`export.statuses.${item.status}`, { defaultValue: item.status })}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {item.download_url ? (
                      <Group gap={4}>
                        <Anchor href={item.download_url} download>
                          {t("export.download")}
                        </Anchor>
                      </Group>
                    ) : (
                      "—"
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}
