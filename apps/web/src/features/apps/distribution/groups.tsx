// Groups of testers: create, delete, and see who is in each.
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  Spoiler,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  createTesterGroup,
  deleteTesterGroup,
  fetchUsersInGroups,
  type TesterGroup,
  testerKeys,
} from "../../../api/testers.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../../ui/confirm-dialog.tsx";
import { describeError } from "../../../ui/error-text.ts";

export function TesterGroups({ appId, groups }: { appId: number; groups: TesterGroup[] }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState("");
  const [deleting, setDeleting] = useState<TesterGroup | null>(null);
  const members = useQuery({
    queryKey: testerKeys.groupMembers(appId),
    queryFn: () => fetchUsersInGroups(appId),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: testerKeys.all(appId) });
  const create = useMutation({
    mutationFn: () => createTesterGroup(appId, title.trim()),
    onSuccess: () => {
      setTitle("");
      refresh();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteTesterGroup(id),
    onSuccess: () => {
      setDeleting(null);
      refresh();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (title.trim() && !create.isPending) create.mutate();
  };
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        {t("groups.title")}
      </Title>
      <form onSubmit={submit} aria-label={t("groups.create")}>
        <Group align="flex-end" gap="sm">
          <TextInput
            label={t("groups.name")}
            required
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            style={{ flex: "1 1 200px" }}
          />
          <Button type="submit" loading={create.isPending}>
            {t("groups.create")}
          </Button>
        </Group>
      </form>
      {groups.length === 0 ? <Text c="dimmed">{t("groups.none")}</Text> : null}
      {groups.map((group) => {
        const testers = members.data?.find((item) => item.id === group.id)?.testers ?? [];
        return (
          <Paper key={group.id} withBorder radius="md" p="sm" component="section" aria-label={group.title}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                <Text fw={600} truncate>
                  {group.title}
                </Text>
                <Badge variant="light">{t("groups.count", { count: group.testers_count })}</Badge>
              </Group>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t("groups.delete_named", { title: group.title })}
                onClick={() => setDeleting(group)}
              >
                <span aria-hidden="true">×</span>
              </ActionIcon>
            </Group>
            {testers.length > 0 ? (
              <Spoiler maxHeight={44} showLabel={t("groups.show_all")} hideLabel={t("groups.show_less")}>
                <Text fz="sm" c="dimmed" style={{ wordBreak: "break-word" }}>
                  {testers.map((tester) => tester.email).join(", ")}
                </Text>
              </Spoiler>
            ) : null}
          </Paper>
        );
      })}
      <ConfirmDialog
        opened={deleting !== null}
        title={t("groups.delete")}
        message={t("groups.delete_confirm", { title: deleting?.title ?? "" })}
        confirmLabel={t("groups.delete")}
        busy={remove.isPending}
        onConfirm={() => deleting && !remove.isPending && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
