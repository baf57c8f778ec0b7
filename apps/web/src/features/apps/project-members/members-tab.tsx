// The app page's "Members" tab: who may see the project's apps, with which role and in which
// environments; and the combined view that adds the organization admins (who see everything).
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApplicationDetail } from "../../../api/applications.ts";
import {
  listProjectMembers,
  PROJECT_MEMBERS_PAGE_SIZE,
  type ProjectMember,
  projectMemberKeys,
  removeProjectMember,
  resendProjectInvitation,
} from "../../../api/project-members.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../../ui/confirm-dialog.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageControls } from "../../../ui/page-controls.tsx";
import { ROLE_COLORS, roleKey } from "../../../ui/role-labels.ts";
import { CombinedUsers, EnvAccess, personLabel } from "./combined-users.tsx";
import { MemberDialog } from "./member-dialog.tsx";

type View = "members" | "combined";

export function projectEnvironments(app: ApplicationDetail): string[] {
  const names = [app.environment, ...(app.environments ?? []).map((item) => item.environment)];
  return [...new Set(names.filter(Boolean))];
}

export function MembersTab({ app }: { app: ApplicationDetail }) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>("members");
  return (
    <Stack gap="md">
      <SegmentedControl
        value={view}
        onChange={(value) => setView(value as View)}
        data={[
          { value: "members", label: t("members.project_members") },
          { value: "combined", label: t("members.combined") },
        ]}
        maw={460}
      />
      {view === "members" ? <ProjectMembers app={app} /> : <CombinedUsers app={app} />}
    </Stack>
  );
}

type Editing = { member: ProjectMember | null } | null;

function ProjectMembers({ app }: { app: ApplicationDetail }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const projectId = app.project_app;
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, 400);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<ProjectMember | null>(null);
  const query = useQuery({
    queryKey: projectMemberKeys.list(projectId, page, debounced),
    queryFn: () => listProjectMembers(projectId, page, debounced),
  });
  const onError = (error: unknown) => alerts.show({ type: "error", message: describeError(error, t) });
  const resend = useMutation({
    mutationFn: (member: ProjectMember) => resendProjectInvitation(projectId, member.id),
    onSuccess: () => alerts.show({ type: "success", message: t("staff.invite_sent") }),
    onError,
  });
  const remove = useMutation({
    mutationFn: (id: number) => removeProjectMember(id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("members.removed") });
      void queryClient.invalidateQueries({ queryKey: projectMemberKeys.all(projectId) });
      setRemoving(null);
    },
    onError,
  });
  const pages = query.data ? Math.max(1, Math.ceil(query.data.count / PROJECT_MEMBERS_PAGE_SIZE)) : page;
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm" align="flex-end">
        <TextInput
          label={t("staff.search")}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: "1 1 220px" }}
          maw={360}
        />
        <Button onClick={() => setEditing({ member: null })}>{t("members.add")}</Button>
      </Group>
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.results.length === 0 ? <Text c="dimmed">{t("members.none")}</Text> : null}
      {query.data && query.data.results.length > 0 ? (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("staff.member")}</Table.Th>
                  <Table.Th>{t("staff.role")}</Table.Th>
                  <Table.Th>{t("members.envs")}</Table.Th>
                  <Table.Th>{t("staff.actions")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.results.map((member) => (
                  <Table.Tr key={member.id}>
                    <Table.Td>
                      <Stack gap={2}>
                        <Text fz="sm" style={{ wordBreak: "break-all" }}>
                          {personLabel(member)}
                        </Text>
                        {member.is_pending ? (
                          <Badge size="xs" color="yellow" variant="light">
                            {t("staff.invited")}
                          </Badge>
                        ) : null}
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={ROLE_COLORS[member.role] ?? "gray"} variant="light">
                        {t(roleKey(member.role))}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <EnvAccess all={member.is_access_all_envs} envs={member.access_envs} />
                    </Table.Td>
                    <Table.Td>
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t("staff.actions_for", { email: member.email })}
                          >
                            <span aria-hidden="true">⋯</span>
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => setEditing({ member })}>{t("members.edit")}</Menu.Item>
                          {member.is_pending ? (
                            <Menu.Item onClick={() => resend.mutate(member)}>{t("staff.resend")}</Menu.Item>
                          ) : null}
                          <Menu.Item color="red" onClick={() => setRemoving(member)}>
                            {t("members.remove")}
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      ) : null}
      <PageControls pages={pages} page={page} onChange={setPage} />
      {editing ? (
        <MemberDialog
          orgId={app.organization}
          projectId={projectId}
          environments={projectEnvironments(app)}
          member={editing.member}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        opened={removing !== null}
        title={t("members.remove")}
        message={t("members.remove_confirm", { email: removing?.email ?? "" })}
        confirmLabel={t("members.remove")}
        busy={remove.isPending}
        onConfirm={() => removing && !remove.isPending && remove.mutate(removing.id)}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}
