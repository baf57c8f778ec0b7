// The app's store uploads, newest first; refreshed while one is under way.
import { Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { isUnderWay, listStoreUploads, storeKeys } from "../../../api/store.ts";
import { formatDateTime } from "../../../ui/format/date.ts";
import { STORE_POLL_MS, StoreUploadState } from "./store-upload-progress.tsx";

export function StoreHistory({ appId }: { appId: number }) {
  const { t, i18n } = useTranslation();
  const query = useQuery({
    queryKey: storeKeys.history(appId),
    queryFn: () => listStoreUploads(appId),
    refetchInterval: (current) => (current.state.data?.some(isUnderWay) ? STORE_POLL_MS : false),
  });
  if (!query.data?.length) return null;
  return (
    <Stack gap="xs">
      <Title order={3} fz="h4">
        {t("store.history")}
      </Title>
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" data-testid="store-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("apps.version")}</Table.Th>
                <Table.Th>{t("store.store")}</Table.Th>
                <Table.Th>{t("apps.date")}</Table.Th>
                <Table.Th>{t("store.state")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.map((upload) => (
                <Table.Tr key={upload.task_id}>
                  <Table.Td>{upload.version_title}</Table.Td>
                  <Table.Td>
                    <Text fz="sm">
                      {t(`store.${upload.store}.name`)}
                      {upload.track ? ` · ${t(`store.tracks.${upload.track}`)}` : ""}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDateTime(upload.created_at, i18n.language)}</Table.Td>
                  <Table.Td>
                    <StoreUploadState upload={upload} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}
