import { Button, Group, Paper, Skeleton, Stack, Table, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import {
  deletePermissionGroup,
  fetchPermissionGroups,
  PERMISSION_GROUP_PAGE_SIZE,
  type PermissionGroup,
  permissionGroupKeys,
} from "../../api/permission-groups.ts";
import { fetchProjects, projectKeys } from "../../api/projects.ts";
import { isAdminRole } from "../../api/roles.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { ListTable } from "../../ui/list-table.tsx";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { PageFrame, ProfileGate } from "../../ui/page-frame.tsx";
import { useSettledSearch } from "../../ui/use-settled-search.ts";
import { type EditingGroup, PermissionGroupDialog } from "./permission-group-dialog.tsx";

export function PermissionGroupsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("permission_groups.title")} description={t("permission_groups.description")}>
      <ProfileGate needsOrg allow={isAdminRole}>
        {(_profile, org) => (org ? <PermissionGroupsList org={org} /> : null)}
      </ProfileGate>
    </PageFrame>
  );
}

function PermissionGroupsList({ org }: { org: OrgData }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const resetPage = useCallback(() => setPage(1), []);
  const { typed, setTyped, search } = useSettledSearch(resetPage);
  const [editing, setEditing] = useState<EditingGroup>(null);
  const [deleting, setDeleting] = useState<PermissionGroup | null>(null);

  const query = useQuery({
    queryKey: permissionGroupKeys.list(org.org_id, page, search),
    queryFn: () => fetchPermissionGroups(org.org_id, page, search),
  });
  // The groups hold project ids only; the titles come from the organization's projects.
  const projects = useQuery({
    queryKey: projectKeys.list(org.org_id),
    queryFn: () => fetchProjects(org.org_id),
  });
  const projectTitles = new Map((projects.data ?? []).map((project) => [project.id, project.project_title]));
  const pages = Math.max(1, Math.ceil((query.data?.count ?? 0) / PERMISSION_GROUP_PAGE_SIZE));
  const groups = query.data?.results ?? [];

  const remove = useMutation({
    mutationFn: (id: number) => deletePermissionGroup(id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("permission_groups.deleted") });
      // Deleting the last group of a later page would leave that page empty.
      if (groups.length === 1 && page > 1) setPage(page - 1);
      void queryClient.invalidateQueries({ queryKey: permissionGroupKeys.all(org.org_id) });
      setDeleting(null);
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const startCreating = () => setEditing({ mode: "create" });

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <TextInput
          aria-label={t("permission_groups.search")}
          placeholder={t("permission_groups.search")}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          w={{ base: "100%", xs: 320 }}
        />
        <Button onClick={startCreating}>{t("permission_groups.create")}</Button>
      </Group>
      {query.isPending ? <GroupsSkeleton /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && groups.length === 0 ? (
        <GroupsEmpty filtered={search !== ""} onCreate={startCreating} />
      ) : null}
      {groups.length > 0 ? (
        <ListTable
          minWidth={640}
          headings={[
            t("permission_groups.group"),
            t("permission_groups.members"),
            t("permission_groups.projects"),
            t("permission_groups.actions"),
          ]}
        >
          {groups.map((group) => (
            <Table.Tr key={group.id}>
              <Table.Td fw={600}>{group.title}</Table.Td>
              <Table.Td>{group.members}</Table.Td>
              <Table.Td>
                {group.projects.length === 0 ? (
                  <Text c="dimmed" fz="sm">
                    {t("permission_groups.no_projects")}
                  </Text>
                ) : (
                  group.projects
                    .map((id) => projectTitles.get(id) ?? t("permission_groups.unknown_project", { id }))
                    .join(", ")
                )}
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    variant="light"
                    size="xs"
                    aria-label={t("permission_groups.edit_named", { title: group.title })}
                    onClick={() => setEditing({ mode: "edit", group })}
                  >
                    {t("permission_groups.edit")}
                  </Button>
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    aria-label={t("permission_groups.delete_named", { title: group.title })}
                    onClick={() => setDeleting(group)}
                  >
                    {t("permission_groups.delete")}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      ) : null}
      <PageControls pages={pages} page={page} onChange={setPage} />
      <PermissionGroupDialog editing={editing} org={org} onClose={() => setEditing(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={t("permission_groups.delete")}
        message={t("permission_groups.delete_confirm", { title: deleting?.title ?? "" })}
        confirmLabel={t("permission_groups.delete")}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

function GroupsSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" aria-busy="true" aria-label={t("common.loading")} role="status">
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} height={36} radius="sm" />
      ))}
    </Stack>
  );
}

function GroupsEmpty({ filtered, onCreate }: { filtered: boolean; onCreate: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="sm">
        <Text fw={600}>{filtered ? t("permission_groups.none_found") : t("permission_groups.empty")}</Text>
        {filtered ? null : (
          <>
            <Text c="dimmed" ta="center">
              {t("permission_groups.empty_hint")}
            </Text>
            <Button onClick={onCreate}>{t("permission_groups.create")}</Button>
          </>
        )}
      </Stack>
    </Paper>
  );
}
