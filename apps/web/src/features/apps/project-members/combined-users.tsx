// Everyone who can see the project: organization admins (always every environment) and members.
import { Badge, Group, Paper, Stack, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApplicationDetail, UserSummary } from "../../../api/applications.ts";
import {
  COMBINED_USERS_PAGE_SIZE,
  listCombinedUsers,
  projectMemberKeys,
} from "../../../api/project-members.ts";
import { LoadError } from "../../../ui/load-error.tsx";
import { PageControls } from "../../../ui/page-controls.tsx";
import { ROLE_COLORS, roleKey } from "../../../ui/role-labels.ts";

export function personLabel(person: Pick<UserSummary, "email" | "first_name" | "last_name">): string {
  const name = [person.first_name, person.last_name].filter(Boolean).join(" ");
  return name ? `${name} (${person.email})` : person.email;
}

export function EnvAccess({ all, envs }: { all: boolean; envs: string[] }) {
  const { t } = useTranslation();
  if (all) return <Text fz="sm">{t("members.all_envs_short")}</Text>;
  if (envs.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        {t("members.no_envs")}
      </Text>
    );
  return (
    <Group gap={4}>
      {envs.map((env) => (
        <Badge key={env} variant="outline" size="sm">
          {env}
        </Badge>
      ))}
    </Group>
  );
}

export function CombinedUsers({ app }: { app: ApplicationDetail }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: projectMemberKeys.combined(app.project_app, page),
    queryFn: () => listCombinedUsers(app.id, app.project_app, page),
  });
  const pages = query.data ? Math.max(1, Math.ceil(query.data.count / COMBINED_USERS_PAGE_SIZE)) : page;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  return (
    <Stack gap="sm">
      <Text fz="sm" c="dimmed">
        {t("members.combined_hint")}
      </Text>
      {query.data ? (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("staff.member")}</Table.Th>
                  <Table.Th>{t("staff.role")}</Table.Th>
                  <Table.Th>{t("members.envs")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.results.map((user) => (
                  <Table.Tr key={`${user.user}-${user.id ?? "admin"}`}>
                    <Table.Td style={{ wordBreak: "break-all" }}>{personLabel(user)}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Badge color={ROLE_COLORS[user.role] ?? "gray"} variant="light">
                          {t(roleKey(user.role))}
                        </Badge>
                        {user.is_admin ? (
                          <Badge size="xs" variant="outline">
                            {t("members.org_admin")}
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <EnvAccess all={user.is_access_all_envs} envs={user.access_envs} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      ) : null}
      <PageControls pages={pages} page={page} onChange={setPage} />
    </Stack>
  );
}
