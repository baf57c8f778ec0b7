import { Modal, MultiSelect, NativeSelect, Stack } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchProjects, projectKeys } from "../../api/projects.ts";
import { EDITABLE_ROLES } from "../../api/roles.ts";
import { type AssignableRole, type Membership, staffKeys, updateMembership } from "../../api/staff.ts";
import { fetchTeams, teamKeys } from "../../api/teams.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { FormAlert } from "../../ui/forms/form-alert.tsx";
import { FormDialogActions } from "../../ui/forms/form-dialog-actions.tsx";
import { useFormErrors } from "../../ui/forms/use-form-errors.ts";
import { roleKey } from "../../ui/role-labels.ts";

const MEMBER_FIELDS = ["role", "teams", "projects"] as const;

export function EditMemberDialog({ member, onClose }: { member: Membership | null; onClose: () => void }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const orgId = member?.organization ?? 0;
  const [role, setRole] = useState("");
  const [teams, setTeams] = useState<string[]>([]);
  const [projects, setProjects] = useState<string[]>([]);
  const formErrors = useFormErrors(MEMBER_FIELDS);

  useEffect(() => {
    if (!member) return;
    setRole(String(member.role));
    setTeams(member.teams.map(String));
    setProjects(member.projects.map(String));
  }, [member]);

  const teamsQuery = useQuery({
    queryKey: teamKeys.list(orgId),
    queryFn: () => fetchTeams(orgId),
    enabled: member !== null,
  });
  const projectsQuery = useQuery({
    queryKey: projectKeys.list(orgId),
    queryFn: () => fetchProjects(orgId),
    enabled: member !== null,
  });

  const save = useMutation({
    mutationFn: () =>
      updateMembership(member?.id ?? 0, {
        // The picker offers assignable roles only.
        role: Number(role) as AssignableRole,
        teams: teams.map(Number),
        projects: projects.map(Number),
      }),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("staff.saved") });
      void queryClient.invalidateQueries({ queryKey: staffKeys.all(orgId) });
      void queryClient.invalidateQueries({ queryKey: teamKeys.list(orgId) });
      onClose();
    },
    onError: formErrors.showError,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formErrors.reset();
    save.mutate();
  };

  const { errors } = formErrors;
  return (
    <Modal
      opened={member !== null}
      onClose={onClose}
      title={t("staff.edit_title", { email: member?.email ?? "" })}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit}>
        <Stack gap="md">
          <FormAlert state={formErrors} />
          <NativeSelect
            label={t("staff.role")}
            value={role}
            onChange={(event) => setRole(event.currentTarget.value)}
            data={EDITABLE_ROLES.map((value) => ({ value: String(value), label: t(roleKey(value)) }))}
            description={role ? t(`roles.help.r${role}`) : undefined}
            error={errors.fields.role}
          />
          <MultiSelect
            label={t("staff.teams")}
            data={(teamsQuery.data?.results ?? []).map((team) => ({
              value: String(team.id),
              label: team.title,
            }))}
            value={teams}
            onChange={setTeams}
            searchable
            error={errors.fields.teams}
          />
          <MultiSelect
            label={t("staff.projects")}
            placeholder={(projectsQuery.data ?? []).length === 0 ? t("staff.no_projects") : undefined}
            data={(projectsQuery.data ?? []).map((project) => ({
              value: String(project.id),
              label: project.project_title,
            }))}
            value={projects}
            onChange={setProjects}
            searchable
            error={errors.fields.projects}
          />
          <FormDialogActions onCancel={onClose} busy={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
