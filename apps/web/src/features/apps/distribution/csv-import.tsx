// Imports testers into a group from a CSV. One bad line rejects the whole file, so every bad
// line is listed with its number for the user to fix in one go.
import { Alert, Button, FileInput, Group, List, Modal, Select, Stack, Table, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TesterCsvErrors } from "@tarmac/contracts";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/client.ts";
import { type TesterGroup, testerKeys, uploadTesterCsv } from "../../../api/testers.ts";
import { describeError } from "../../../ui/error-text.ts";

export function csvErrors(error: unknown): TesterCsvErrors["errors"] | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = error.body as Partial<TesterCsvErrors> | null;
  return Array.isArray(body?.errors) ? body.errors : null;
}

interface CsvImportDialogProps {
  appId: number;
  groups: TesterGroup[];
  onClose: () => void;
}

export function CsvImportDialog({ appId, groups, onClose }: CsvImportDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [group, setGroup] = useState<string | null>(groups[0] ? String(groups[0].id) : null);
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: () => uploadTesterCsv(appId, Number(group), file as File),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: testerKeys.all(appId) }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (group && file && !upload.isPending) upload.mutate();
  };
  const lineErrors = csvErrors(upload.error);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t("testers.import_csv")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit}>
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            {t("testers.csv_hint")}
          </Text>
          <Select
            label={t("testers.csv_group")}
            data={groups.map((item) => ({ value: String(item.id), label: item.title }))}
            value={group}
            onChange={setGroup}
            allowDeselect={false}
            required
          />
          <FileInput
            label={t("testers.csv_file")}
            accept=".csv,text/csv"
            required
            value={file}
            onChange={(value) => {
              setFile(value);
              upload.reset();
            }}
          />
          {upload.data ? (
            <Alert color="green" title={t("testers.csv_done")}>
              <Text fz="sm">
                {t("testers.csv_counts", { created: upload.data.created, updated: upload.data.updated })}
              </Text>
              {upload.data.duplicates.length > 0 ? (
                <Text fz="sm">
                  {t("testers.csv_duplicates", { lines: upload.data.duplicates.join(", ") })}
                </Text>
              ) : null}
            </Alert>
          ) : null}
          {lineErrors ? (
            <Alert color="red" title={t("testers.csv_rejected", { count: lineErrors.length })}>
              <Table fz="sm" verticalSpacing={2}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("testers.csv_line")}</Table.Th>
                    <Table.Th>{t("testers.csv_problem")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {lineErrors.map((item) => (
                    <Table.Tr key={`${item.line}-${item.message}`}>
                      <Table.Td>{item.line}</Table.Td>
                      <Table.Td>{item.message}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Alert>
          ) : null}
          {upload.error && !lineErrors ? (
            <List>
              <List.Item c="red">{describeError(upload.error, t)}</List.Item>
            </List>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {upload.data ? t("testers.close") : t("common.cancel")}
            </Button>
            {upload.data ? null : (
              <Button type="submit" loading={upload.isPending} disabled={!file || !group}>
                {t("testers.csv_upload")}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
