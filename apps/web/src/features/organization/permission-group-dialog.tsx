import { Modal, MultiSelect, type OptionsFilter, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import {
  createPermissionGroup,
  type PermissionGroup,
  permissionGroupKeys,
  updatePermissionGroup,
} from "../../api/permission-groups.ts";
import { fetchProjects, projectKeys } from "../../api/projects.ts";
import { fetchMemberships, staffKeys } from "../../api/staff.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { FormDialogActions } from "../../ui/forms/form-dialog-actions.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { useSettledSearch } from "../../ui/use-settled-search.ts";

export type EditingGroup = { mode: "create" } | { mode: "edit"; group: PermissionGroup } | null;

const GROUP_FIELDS = ["title", "projects", "users"] as const;

// The member search has no pages to go back to when it changes.
function ignoreSearchChange() {}

// The server has already searched the members; filtering the options again by their labels
// (e-mail addresses) would hide members found by name.
const keepServerMatches: OptionsFilter<number> = ({ options }) => options;

interface PermissionGroupDialogProps {
  editing: EditingGroup;
  org: OrgData;
  onClose: () => void;
}

export function PermissionGroupDialog({ editing, org, onClose }: PermissionGroupDialogProps) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState("");
  const [projects, setProjects] = useState<number[]>([]);
  const [users, setUsers] = useState<number[]>([]);
  const formErrors = useFormErrors(GROUP_FIELDS);
  const { reset: resetErrors } = formErrors;
  const memberSearch = useSettledSearch(ignoreSearchChange);
  const { setTyped: setMemberSearch } = memberSearch;
  // E-mail addresses of every member seen in a search, so chosen members keep their labels
  // after the search moves on.
  const [emails, setEmails] = useState<ReadonlyMap<number, string>>(new Map());

  const projectsQuery = useQuery({
    queryKey: projectKeys.list(org.org_id),
    queryFn: () => fetchProjects(org.org_id),
    enabled: editing !== null,
  });
  const membersQuery = useQuery({
    queryKey: staffKeys.list(org.org_id, 1, memberSearch.search),
    queryFn: () => fetchMemberships(org.org_id, 1, memberSearch.search),
    enabled: editing !== null,
  });

  useEffect(() => {
    setTitle(editing?.mode === "edit" ? editing.group.title : "");
    setProjects(editing?.mode === "edit" ? editing.group.projects : []);
    setUsers(editing?.mode === "edit" ? editing.group.users : []);
    setMemberSearch("");
    // A reopened dialog starts clean, without the errors of an earlier attempt.
    resetErrors();
  }, [editing, setMemberSearch, resetErrors]);

  useEffect(() => {
    const found = membersQuery.data?.results ?? [];
    if (found.length === 0) return;
    setEmails(
      (known) => new Map([...known, ...found.map((member) => [member.userid, member.email] as const)]),
    );
  }, [membersQuery.data]);

  const save = useMutation({
    mutationFn: () => {
      const fields = { title: title.trim(), projects, users };
      return editing?.mode === "edit"
        ? updatePermissionGroup(editing.group.id, fields)
        : createPermissionGroup({ ...fields, organization: org.org_id });
    },
    onSuccess: () => {
      alerts.show({ type: "success", message: t("permission_groups.saved") });
      void queryClient.invalidateQueries({ queryKey: permissionGroupKeys.all(org.org_id) });
      onClose();
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };

  const projectOptions = (projectsQuery.data ?? []).map((project) => ({
    value: project.id,
    label: project.project_title,
  }));
  const memberLabel = (id: number) => emails.get(id) ?? t("permission_groups.unknown_member", { id });
  // The chosen members stay among the options (for their pills) beside the search's matches.
  const memberIds = new Set([...users, ...(membersQuery.data?.results ?? []).map((member) => member.userid)]);
  const memberOptions = [...memberIds].map((id) => ({ value: id, label: memberLabel(id) }));
  const { errors } = formErrors;

  return (
    <Modal
      opened={editing !== null}
      onClose={onClose}
      title={editing?.mode === "edit" ? t("permission_groups.edit") : t("permission_groups.create")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit}>
        <Stack gap="md">
          <FormAlert state={formErrors} />
          <TextInput
            label={t("permission_groups.name")}
            required
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={errors.fields.title}
          />
          <MultiSelect
            label={t("permission_groups.projects")}
            description={t("permission_groups.projects_hint")}
            placeholder={projectOptions.length === 0 ? t("permission_groups.no_project_choices") : undefined}
            data={projectOptions}
            value={projects}
            onChange={setProjects}
            searchable
            error={errors.fields.projects}
          />
          <MultiSelect
            label={t("permission_groups.members")}
            placeholder={t("permission_groups.members_search")}
            data={memberOptions}
            value={users}
            onChange={setUsers}
            searchable
            searchValue={memberSearch.typed}
            onSearchChange={setMemberSearch}
            filter={keepServerMatches}
            hidePickedOptions
            nothingFoundMessage={t("permission_groups.no_members_found")}
            error={errors.fields.users}
          />
          <FormDialogActions onCancel={onClose} busy={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
