import {
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import { canManageTeams, isAdminRole } from "../../api/roles.ts";
import { fetchMemberships, staffKeys } from "../../api/staff.ts";
import { createTeam, deleteTeam, fetchTeams, type OrgTeam, saveTeam, teamKeys } from "../../api/teams.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { FormDialogActions } from "../../ui/forms/form-dialog-actions.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageFrame, ProfileGate } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";

export function TeamsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("teams.title")} description={t("teams.description")}>
      <ProfileGate needsOrg allow={canManageTeams}>
        {(profile, org) => (org ? <TeamsList org={org} userId={profile.user_id} /> : null)}
      </ProfileGate>
    </PageFrame>
  );
}

type Editing = { mode: "create" } | { mode: "edit"; team: OrgTeam } | null;

function TeamsList({ org, userId }: { org: OrgData; userId: number }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const admin = isAdminRole(org.role);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<OrgTeam | null>(null);
  const query = useQuery({ queryKey: teamKeys.list(org.org_id), queryFn: () => fetchTeams(org.org_id) });

  const remove = useMutation({
    mutationFn: (id: number) => deleteTeam(id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("teams.deleted") });
      void queryClient.invalidateQueries({ queryKey: teamKeys.list(org.org_id) });
      setDeleting(null);
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });

  return (
    <Stack gap="md">
      {admin ? (
        <Button style={{ alignSelf: "flex-start" }} onClick={() => setEditing({ mode: "create" })}>
          {t("teams.create")}
        </Button>
      ) : null}
      {query.isPending ? <PageLoader /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.results.length === 0 ? <Text c="dimmed">{t("teams.empty")}</Text> : null}
      {(query.data?.results ?? []).map((team) => (
        <Paper key={team.id} withBorder radius="md" p="md">
          <Group justify="space-between" align="flex-start" gap="sm">
            <Stack gap={6}>
              <Title order={2} fz="md">
                {team.title}
              </Title>
              <Text fz="sm" c="dimmed">
                {t("teams.members_count", { count: team.users.length })}
              </Text>
              <Group gap={4}>
                {team.users.map((user) => (
                  <Badge key={user.id} variant="light" color="gray" tt="none">
                    {user.email}
                  </Badge>
                ))}
              </Group>
            </Stack>
            <Group gap="xs">
              {/* Team managers edit only the teams they belong to. */}
              {admin || team.users.some((user) => user.id === userId) ? (
                <Button
                  variant="light"
                  size="xs"
                  aria-label={t("teams.edit_named", { title: team.title })}
                  onClick={() => setEditing({ mode: "edit", team })}
                >
                  {t("teams.edit")}
                </Button>
              ) : null}
              {admin ? (
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  aria-label={t("teams.delete_named", { title: team.title })}
                  onClick={() => setDeleting(team)}
                >
                  {t("teams.delete")}
                </Button>
              ) : null}
            </Group>
          </Group>
        </Paper>
      ))}
      <TeamDialog editing={editing} org={org} onClose={() => setEditing(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={t("teams.delete")}
        message={t("teams.delete_confirm", { title: deleting?.title ?? "" })}
        confirmLabel={t("teams.delete")}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

const TEAM_FIELDS = ["title", "users"] as const;

function TeamDialog({ editing, org, onClose }: { editing: Editing; org: OrgData; onClose: () => void }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState("");
  const [users, setUsers] = useState<string[]>([]);
  const formErrors = useFormErrors(TEAM_FIELDS);
  const members = useQuery({
    queryKey: staffKeys.list(org.org_id, 1, ""),
    queryFn: () => fetchMemberships(org.org_id, 1, ""),
    enabled: editing !== null,
  });

  useEffect(() => {
    if (editing?.mode === "edit") {
      setTitle(editing.team.title);
      setUsers(editing.team.users.map((user) => String(user.id)));
    } else {
      setTitle("");
      setUsers([]);
    }
  }, [editing]);

  const save = useMutation({
    mutationFn: () => {
      const input = { title: title.trim(), organization: org.org_id, users: users.map(Number) };
      return editing?.mode === "edit" ? saveTeam({ id: editing.team.id, ...input }) : createTeam(input);
    },
    onSuccess: () => {
      alerts.show({ type: "success", message: t("teams.saved") });
      void queryClient.invalidateQueries({ queryKey: teamKeys.list(org.org_id) });
      onClose();
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };

  const options = (members.data?.results ?? []).map((member) => ({
    value: String(member.userid),
    label: member.email,
  }));
  // Members already in the team stay selectable even when they are beyond the first page.
  if (editing?.mode === "edit") {
    for (const user of editing.team.users) {
      if (!options.some((option) => option.value === String(user.id))) {
        options.push({ value: String(user.id), label: user.email });
      }
    }
  }

  return (
    <Modal
      opened={editing !== null}
      onClose={onClose}
      title={editing?.mode === "edit" ? t("teams.edit") : t("teams.create")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit}>
        <Stack gap="md">
          <FormAlert state={formErrors} />
          <TextInput
            label={t("teams.name")}
            required
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={formErrors.errors.fields.title}
          />
          <MultiSelect
            label={t("teams.members")}
            data={options}
            value={users}
            onChange={setUsers}
            searchable
            error={formErrors.errors.fields.users}
          />
          <FormDialogActions onCancel={onClose} busy={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
