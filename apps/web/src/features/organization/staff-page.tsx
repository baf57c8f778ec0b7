import { Badge, Button, Group, Menu, Stack, Table, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgData, Profile } from "../../api/account.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { canSeeStaff, isAdminRole, ROLE_OWNER } from "../../api/roles.ts";
import {
  disableMemberTwoFactor,
  fetchMemberships,
  type Membership,
  removeMembership,
  resendInvitation,
  STAFF_PAGE_SIZE,
  staffKeys,
} from "../../api/staff.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { ListTable } from "../../ui/list-table.tsx";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { PageFrame, ProfileGate } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { ROLE_COLORS, roleKey } from "../../ui/role-labels.ts";
import { useSettledSearch } from "../../ui/use-settled-search.ts";
import { AddUserDialog } from "./add-user-dialog.tsx";
import { EditMemberDialog } from "./edit-member-dialog.tsx";
import { PendingInvitationsSection } from "./pending-invitations-section.tsx";

export function StaffPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("staff.title")} description={t("staff.description")}>
      <ProfileGate needsOrg allow={canSeeStaff}>
        {(profile, org) => (org ? <StaffList profile={profile} org={org} /> : null)}
      </ProfileGate>
    </PageFrame>
  );
}

function StaffList({ profile, org }: { profile: Profile; org: OrgData }) {
  const { t } = useTranslation();
  const { refreshProfile } = useDashboard();
  const [page, setPage] = useState(1);
  const resetPage = useCallback(() => setPage(1), []);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Membership | null>(null);
  const [removing, setRemoving] = useState<Membership | null>(null);
  const manage = isAdminRole(org.role);

  const { typed, setTyped, search } = useSettledSearch(resetPage);

  const query = useQuery({
    queryKey: staffKeys.list(org.org_id, page, search),
    queryFn: () => fetchMemberships(org.org_id, page, search),
  });
  const pages = Math.max(1, Math.ceil((query.data?.count ?? 0) / STAFF_PAGE_SIZE));

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <TextInput
          aria-label={t("staff.search")}
          placeholder={t("staff.search")}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          w={{ base: "100%", xs: 320 }}
        />
        {manage ? <Button onClick={() => setAdding(true)}>{t("staff.add")}</Button> : null}
      </Group>
      <Text fz="sm" c="dimmed">
        {org.user_limit > 0
          ? t("staff.count_limited", { count: org.users_count, limit: org.user_limit })
          : t("staff.count", { count: org.users_count })}
      </Text>
      {query.isPending ? <PageLoader /> : null}
      {query.isError ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.results.length === 0 ? <Text c="dimmed">{t("staff.empty")}</Text> : null}
      {query.data && query.data.results.length > 0 ? (
        <ListTable
          minWidth={640}
          headings={[
            t("staff.member"),
            t("staff.role"),
            t("staff.status"),
            ...(manage ? [t("staff.actions")] : []),
          ]}
        >
          {query.data.results.map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              manage={manage}
              callerIsOwner={org.role === ROLE_OWNER}
              isSelf={member.userid === profile.user_id}
              onEdit={() => setEditing(member)}
              onRemove={() => setRemoving(member)}
            />
          ))}
        </ListTable>
      ) : null}
      <PageControls pages={pages} page={page} onChange={setPage} />
      {manage ? <PendingInvitationsSection orgId={org.org_id} /> : null}
      <AddUserDialog
        opened={adding}
        org={org}
        onClose={() => setAdding(false)}
        onCreated={() => void refreshProfile()}
      />
      <EditMemberDialog member={editing} onClose={() => setEditing(null)} />
      <RemoveMemberDialog member={removing} orgId={org.org_id} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

interface MemberRowProps {
  member: Membership;
  manage: boolean;
  callerIsOwner: boolean;
  isSelf: boolean;
  onEdit: () => void;
  onRemove: () => void;
}

function MemberRow({ member, manage, callerIsOwner, isSelf, onEdit, onRemove }: MemberRowProps) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const name = [member.first_name, member.last_name].filter(Boolean).join(" ");
  const isOwner = member.role === ROLE_OWNER;

  const resend = useMutation({
    mutationFn: () => resendInvitation(member.id),
    onSuccess: () => alerts.show({ type: "success", message: t("staff.invite_sent") }),
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  const disable2fa = useMutation({
    mutationFn: () => disableMemberTwoFactor(member.id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("staff.twofa_disabled") });
      void queryClient.invalidateQueries({ queryKey: staffKeys.all(member.organization) });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });

  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600} fz="sm">
          {name || member.email}
        </Text>
        {name ? (
          <Text fz="xs" c="dimmed">
            {member.email}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        <Badge color={ROLE_COLORS[member.role]} variant="light">
          {t(roleKey(member.role))}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {member.is_active ? null : (
            <Badge color="yellow" variant="outline">
              {t("staff.invited")}
            </Badge>
          )}
          {member.two_factor_enabled ? (
            <Badge color="green" variant="outline">
              {t("staff.twofa_on")}
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      {manage ? (
        <Table.Td>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="subtle" size="xs" aria-label={t("staff.actions_for", { email: member.email })}>
                {t("staff.actions")} ▾
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item disabled={isOwner} onClick={onEdit}>
                {t("staff.edit")}
              </Menu.Item>
              {member.is_active ? null : (
                <Menu.Item onClick={() => resend.mutate()}>{t("staff.resend")}</Menu.Item>
              )}
              {member.two_factor_enabled && (!isOwner || callerIsOwner) ? (
                <Menu.Item onClick={() => disable2fa.mutate()}>{t("staff.disable_2fa")}</Menu.Item>
              ) : null}
              <Menu.Item color="red" disabled={isOwner || isSelf} onClick={onRemove}>
                {t("staff.remove")}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

function RemoveMemberDialog({
  member,
  orgId,
  onClose,
}: {
  member: Membership | null;
  orgId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const { refreshProfile } = useDashboard();
  const remove = useMutation({
    mutationFn: (id: number) => removeMembership(id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("staff.removed") });
      void queryClient.invalidateQueries({ queryKey: staffKeys.all(orgId) });
      void refreshProfile();
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <ConfirmDialog
      opened={member !== null}
      title={t("staff.remove")}
      message={t("staff.remove_confirm", { email: member?.email ?? "" })}
      confirmLabel={t("staff.remove")}
      busy={remove.isPending}
      onConfirm={() => member && remove.mutate(member.id)}
      onClose={onClose}
    />
  );
}
