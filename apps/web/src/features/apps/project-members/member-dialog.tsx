// Adds an organization member to the project, or changes a member's role and environments.
import { Button, Group, Modal, Select, Stack, Switch, TagsInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  addProjectMember,
  type ProjectMember,
  projectMemberKeys,
  updateProjectMember,
} from "../../../api/project-members.ts";
import { EDITABLE_ROLES } from "../../../api/roles.ts";
import { searchOrgUsers } from "../../../api/staff.ts";
import { useAlerts } from "../../../ui/alerts-provider.tsx";
import { describeError } from "../../../ui/error-text.ts";
import { roleKey } from "../../../ui/role-labels.ts";

/** Spec §9: the user search waits 1500 ms after typing stops. */
const SEARCH_DEBOUNCE_MS = 1500;

interface MemberDialogProps {
  orgId: number;
  projectId: number;
  /** Environments of the project's apps, offered as suggestions. */
  environments: string[];
  /** null adds a member. */
  member: ProjectMember | null;
  onClose: () => void;
}

export function MemberDialog({ orgId, projectId, environments, member, onClose }: MemberDialogProps) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [userId, setUserId] = useState<string | null>(null);
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [role, setRole] = useState<string>(String(member?.role ?? 5));
  const [allEnvs, setAllEnvs] = useState(member?.is_access_all_envs ?? true);
  const [envs, setEnvs] = useState<string[]>(member?.access_envs ?? []);
  const users = useQuery({
    queryKey: projectMemberKeys.userSearch(orgId, debounced),
    queryFn: () => searchOrgUsers(orgId, debounced),
    enabled: member === null,
  });
  const save = useMutation({
    mutationFn: () => {
      const change = {
        role: Number(role) as 2 | 3 | 4 | 5,
        is_access_all_envs: allEnvs,
        access_envs: allEnvs ? [] : envs,
      };
      return member
        ? updateProjectMember(member.id, change)
        : addProjectMember({ user: Number(userId), project: projectId, ...change });
    },
    onSuccess: () => {
      alerts.show({ type: "success", message: t("members.saved") });
      void queryClient.invalidateQueries({ queryKey: projectMemberKeys.all(projectId) });
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if ((member || userId) && !save.isPending) save.mutate();
  };
  const userOptions = (users.data?.results ?? []).map((user) => ({
    value: String(user.id),
    label: [user.first_name, user.last_name].filter(Boolean).join(" ")
      ? `${[user.first_name, user.last_name].filter(Boolean).join(" ")} <${user.email}>`
      : user.email,
  }));
  return (
    <Modal
      opened
      onClose={onClose}
      title={member ? t("members.edit_title", { email: member.email }) : t("members.add")}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit}>
        <Stack gap="md">
          {member ? null : (
            <Select
              label={t("members.user")}
              placeholder={t("members.user_placeholder")}
              searchable
              required
              data={userOptions}
              value={userId}
              onChange={setUserId}
              searchValue={search}
              onSearchChange={setSearch}
              filter={({ options }) => options}
              nothingFoundMessage={users.isFetching ? t("common.loading") : t("members.no_users")}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <Select
            label={t("staff.role")}
            data={EDITABLE_ROLES.map((value) => ({ value: String(value), label: t(roleKey(value)) }))}
            value={role}
            onChange={(value) => setRole(value ?? role)}
            allowDeselect={false}
            required
          />
          <Switch
            label={t("members.all_envs")}
            checked={allEnvs}
            onChange={(event) => setAllEnvs(event.currentTarget.checked)}
          />
          {allEnvs ? null : (
            <TagsInput
              label={t("members.envs")}
              description={t("members.envs_hint")}
              data={environments}
              value={envs}
              onChange={setEnvs}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!member && !userId}>
              {t("common.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
