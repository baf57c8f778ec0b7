import {
  Button,
  Group,
  List,
  Modal,
  MultiSelect,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData } from "../../api/account.ts";
import { fetchProjects, projectKeys } from "../../api/projects.ts";
import { ADD_USER_ROLES } from "../../api/roles.ts";
import { fetchTeams, teamKeys } from "../../api/teams.ts";
import { Alert } from "../../ui/alert.tsx";
import { useLimitWayOut, withWayOut } from "../../ui/limit-way-out.ts";
import { roleKey } from "../../ui/role-labels.ts";
import { useAddUser } from "./use-add-user.ts";

interface AddUserDialogProps {
  opened: boolean;
  org: OrgData;
  onClose: () => void;
  /** Called after a user was added, so the caller can refresh the profile (spec §4). */
  onCreated: () => void;
}

export function AddUserDialog({ opened, org, onClose, onCreated }: AddUserDialogProps) {
  const { t } = useTranslation();
  const form = useAddUser(org, opened, () => {
    onClose();
    onCreated();
  });
  const wayOut = useLimitWayOut(org.org_id, opened && !form.addingAllowed);
  const teamsQuery = useQuery({
    queryKey: teamKeys.list(org.org_id),
    queryFn: () => fetchTeams(org.org_id),
    enabled: opened,
  });
  const projectsQuery = useQuery({
    queryKey: projectKeys.list(org.org_id),
    queryFn: () => fetchProjects(org.org_id),
    enabled: opened,
  });
  const teamOptions = (teamsQuery.data?.results ?? []).map((team) => ({
    value: String(team.id),
    label: team.title,
  }));
  const projectOptions = (projectsQuery.data ?? []).map((project) => ({
    value: String(project.id),
    label: project.project_title,
  }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.submit();
  };

  const suggestions = form.results.filter((user) => user.id !== form.matched?.id);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t("staff.add_title")}
      size="lg"
      transitionProps={{ duration: 300 }}
      overlayProps={{ transitionProps: { duration: 150 } }}
      closeButtonProps={{ "aria-label": t("alert.close") }}
    >
      <form onSubmit={submit} aria-busy={form.busy}>
        <Stack gap="md">
          {!form.addingAllowed ? (
            <Alert
              type="warning"
              message={withWayOut(t("staff.limit_reached"), wayOut)}
              timeout={0}
              dismissible={false}
            />
          ) : null}
          {form.generalError ? <Alert type="error" message={form.generalError} timeout={0} /> : null}
          <TextInput
            label={t("fields.email")}
            description={t("staff.search_hint")}
            name="email"
            type="email"
            autoComplete="off"
            required
            value={form.email}
            onChange={(event) => form.setEmail(event.currentTarget.value)}
            error={form.fieldErrors.userid}
          />
          {suggestions.length > 0 ? (
            <Stack gap={4}>
              <Text fz="xs" c="dimmed" id="user-suggestions">
                {t("staff.suggestions")}
              </Text>
              <List listStyleType="none" spacing={2} aria-labelledby="user-suggestions">
                {suggestions.map((user) => (
                  <List.Item key={user.id}>
                    <UnstyledButton className="suggestion" onClick={() => form.pickUser(user)}>
                      {user.email}
                    </UnstyledButton>
                  </List.Item>
                ))}
              </List>
            </Stack>
          ) : null}
          {form.matched ? (
            <Text fz="sm" c="teal.8" role="status">
              {t("staff.existing_user")}
            </Text>
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label={t("fields.first_name")}
              name="first_name"
              readOnly={form.namesLocked}
              variant={form.namesLocked ? "filled" : "default"}
              value={form.firstName}
              onChange={(event) => form.setFirstName(event.currentTarget.value)}
              error={form.fieldErrors.first_name}
            />
            <TextInput
              label={t("fields.last_name")}
              name="last_name"
              readOnly={form.namesLocked}
              variant={form.namesLocked ? "filled" : "default"}
              value={form.lastName}
              onChange={(event) => form.setLastName(event.currentTarget.value)}
              error={form.fieldErrors.last_name}
            />
          </SimpleGrid>
          <NativeSelect
            label={t("staff.role")}
            name="role"
            value={form.role === null ? "" : String(form.role)}
            onChange={(event) => {
              const value = event.currentTarget.value;
              form.setRole(value === "" ? null : Number(value));
            }}
            data={[
              { value: "", label: t("staff.choose_role") },
              ...ADD_USER_ROLES.map((role) => ({ value: String(role), label: t(roleKey(role)) })),
            ]}
            description={form.role === null ? undefined : t(`roles.help.r${form.role}`)}
            error={form.roleMissing ? t("staff.role_required") : form.fieldErrors.role}
          />
          <MultiSelect
            label={t("staff.teams")}
            placeholder={teamOptions.length === 0 ? t("staff.no_teams") : undefined}
            data={teamOptions}
            value={form.teams}
            onChange={form.setTeams}
            disabled={teamOptions.length === 0}
            searchable
            error={form.fieldErrors.teams}
          />
          <MultiSelect
            label={t("staff.projects")}
            placeholder={projectOptions.length === 0 ? t("staff.no_projects") : undefined}
            data={projectOptions}
            value={form.projects}
            onChange={form.setProjects}
            disabled={projectOptions.length === 0}
            searchable
            error={form.fieldErrors.projects}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={form.busy} disabled={!form.addingAllowed}>
              {t("staff.add_submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
