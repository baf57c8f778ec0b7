// The app's testers: add by e-mail (into groups), filter by group, remove, import a CSV.
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  addTester,
  listTesters,
  removeTester,
  TESTERS_PAGE_SIZE,
  type Tester,
  type TesterGroup,
  testerKeys,
} from "../../../api/testers.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../../ui/confirm-dialog.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageControls } from "../../../ui/page-controls.tsx";
import { CsvImportDialog } from "./csv-import.tsx";

interface TestersProps {
  appId: number;
  groups: TesterGroup[];
}

export function Testers({ appId, groups }: TestersProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [group, setGroup] = useState<number | null>(null);
  const [removing, setRemoving] = useState<Tester | null>(null);
  const [importing, setImporting] = useState(false);
  const query = useQuery({
    queryKey: testerKeys.list(appId, page, group),
    queryFn: () => listTesters(appId, page, group),
  });
  const pages = query.data ? Math.max(1, Math.ceil(query.data.count / TESTERS_PAGE_SIZE)) : page;
  const titles = new Map(groups.map((item) => [item.id, item.title]));
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Title order={2} fz="lg">
          {t("testers.title")}
        </Title>
        <Button
          size="xs"
          variant="default"
          onClick={() => setImporting(true)}
          disabled={groups.length === 0}
          aria-describedby={groups.length === 0 ? "csv-needs-group" : undefined}
        >
          {t("testers.import_csv")}
        </Button>
      </Group>
      {/* A disabled button says nothing by itself: tell why, next to it. */}
      {groups.length === 0 ? (
        <Text id="csv-needs-group" fz="xs" c="dimmed" ta="right">
          {t("testers.import_csv_needs_group")}
        </Text>
      ) : null}
      <AddTesterForm appId={appId} groups={groups} />
      <Select
        label={t("testers.filter")}
        data={[
          { value: "", label: t("testers.all") },
          ...groups.map((item) => ({ value: String(item.id), label: item.title })),
        ]}
        value={group === null ? "" : String(group)}
        onChange={(value) => {
          setGroup(value ? Number(value) : null);
          setPage(1);
        }}
        allowDeselect={false}
        maw={320}
      />
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.results.length === 0 ? <Text c="dimmed">{t("testers.none")}</Text> : null}
      {query.data && query.data.results.length > 0 ? (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("testers.email")}</Table.Th>
                  <Table.Th>{t("testers.name")}</Table.Th>
                  <Table.Th>{t("testers.groups")}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.results.map((tester) => (
                  <Table.Tr key={tester.id}>
                    <Table.Td style={{ wordBreak: "break-all" }}>{tester.email}</Table.Td>
                    <Table.Td>
                      {[tester.first_name, tester.last_name].filter(Boolean).join(" ") || "—"}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {tester.groups.map((id) => (
                          <Badge key={id} variant="light" size="sm">
                            {titles.get(id) ?? id}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t("testers.remove_named", { email: tester.email })}
                        onClick={() => setRemoving(tester)}
                      >
                        <span aria-hidden="true">×</span>
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      ) : null}
      <PageControls pages={pages} page={page} onChange={setPage} />
      <RemoveTesterDialog appId={appId} tester={removing} onClose={() => setRemoving(null)} />
      {importing ? (
        <CsvImportDialog appId={appId} groups={groups} onClose={() => setImporting(false)} />
      ) : null}
    </Stack>
  );
}

function AddTesterForm({ appId, groups }: TestersProps) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const add = useMutation({
    // Without a chosen group an existing tester keeps the groups they are in.
    mutationFn: () =>
      addTester({
        email: email.trim(),
        app: appId,
        ...(chosen.length > 0 ? { groups: chosen.map(Number) } : {}),
      }),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("testers.added") });
      setEmail("");
      void queryClient.invalidateQueries({ queryKey: testerKeys.all(appId) });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (email.trim() && !add.isPending) add.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={t("testers.add")}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          type="email"
          label={t("testers.email")}
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          style={{ flex: "1 1 220px" }}
        />
        <MultiSelect
          label={t("testers.groups")}
          data={groups.map((item) => ({ value: String(item.id), label: item.title }))}
          value={chosen}
          onChange={setChosen}
          style={{ flex: "1 1 200px" }}
          comboboxProps={{ withinPortal: true }}
        />
        <Button type="submit" loading={add.isPending}>
          {t("testers.add")}
        </Button>
      </Group>
    </form>
  );
}

function RemoveTesterDialog({
  appId,
  tester,
  onClose,
}: {
  appId: number;
  tester: Tester | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => removeTester(id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("testers.removed") });
      void queryClient.invalidateQueries({ queryKey: testerKeys.all(appId) });
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <ConfirmDialog
      opened={tester !== null}
      title={t("testers.remove")}
      message={t("testers.remove_confirm", { email: tester?.email ?? "" })}
      confirmLabel={t("testers.remove")}
      busy={remove.isPending}
      onConfirm={() => tester && !remove.isPending && remove.mutate(tester.id)}
      onClose={onClose}
    />
  );
}
