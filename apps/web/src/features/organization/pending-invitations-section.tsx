// Staff → invitations not answered yet (admins): each holds a seat until it is accepted,
// declined, cancelled or expires. Hidden while there are none.
import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import {
  cancelOrgInvitation,
  fetchOrgInvitations,
  INVITATIONS_PAGE_SIZE,
  type Invitation,
  invitationKeys,
  resendOrgInvitation,
} from "../../api/invitations.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { formatDate } from "../../ui/format/date.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageControls } from "../../ui/page-controls.tsx";
import { ROLE_COLORS, roleKey } from "../../ui/role-labels.ts";

export function PendingInvitationsSection({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [cancelling, setCancelling] = useState<Invitation | null>(null);
  const query = useQuery({
    queryKey: invitationKeys.page(orgId, page),
    queryFn: () => fetchOrgInvitations(orgId, page),
  });
  const count = query.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / INVITATIONS_PAGE_SIZE));
  // The last invitation of the last page was cancelled or accepted: show the page before it.
  useEffect(() => {
    if (query.data && page > pages) setPage(pages);
  }, [query.data, page, pages]);
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  if (!query.data || count === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="pending-invitations">
      <Title order={2} fz="lg" id="pending-invitations">
        {t("staff.pending_title", { count })}
      </Title>
      <Text fz="sm" c="dimmed">
        {t("staff.pending_intro")}
      </Text>
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" aria-labelledby="pending-invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("fields.email")}</Table.Th>
                <Table.Th>{t("staff.role")}</Table.Th>
                <Table.Th>{t("staff.invited_on")}</Table.Th>
                <Table.Th>{t("staff.expires_on")}</Table.Th>
                <Table.Th>{t("staff.actions")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.results.map((invitation) => (
                <InvitationRow
                  key={invitation.id}
                  invitation={invitation}
                  onCancel={() => setCancelling(invitation)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <PageControls pages={Math.ceil(count / INVITATIONS_PAGE_SIZE)} page={page} onChange={setPage} />
      <CancelInvitationDialog orgId={orgId} invitation={cancelling} onClose={() => setCancelling(null)} />
    </Stack>
  );
}

function InvitationRow({ invitation, onCancel }: { invitation: Invitation; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const alerts = useAlerts();
  const name = [invitation.first_name, invitation.last_name].filter(Boolean).join(" ");
  const resend = useMutation({
    mutationFn: () => resendOrgInvitation(invitation.id),
    onSuccess: () => alerts.show({ type: "success", message: t("staff.invite_sent") }),
    onError: (error) =>
      alerts.show({
        type: "error",
        message:
          error instanceof ApiError && error.status === 429
            ? t("staff.invite_throttled")
            : describeError(error, t),
      }),
  });
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600} fz="sm">
          {invitation.email}
        </Text>
        {name ? (
          <Text fz="xs" c="dimmed">
            {name}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        <Badge color={ROLE_COLORS[invitation.role]} variant="light">
          {t(roleKey(invitation.role))}
        </Badge>
      </Table.Td>
      <Table.Td>{formatDate(invitation.created_at, i18n.language)}</Table.Td>
      <Table.Td>{formatDate(invitation.expires_at, i18n.language)}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            loading={resend.isPending}
            onClick={() => resend.mutate()}
            aria-label={t("staff.resend_to", { email: invitation.email })}
          >
            {t("staff.resend")}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={onCancel}
            aria-label={t("staff.cancel_invitation_of", { email: invitation.email })}
          >
            {t("staff.cancel_invitation")}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function CancelInvitationDialog({
  orgId,
  invitation,
  onClose,
}: {
  orgId: number;
  invitation: Invitation | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const { refreshProfile } = useDashboard();
  const cancel = useMutation({
    mutationFn: (id: number) => cancelOrgInvitation(id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("staff.invitation_cancelled") });
      void queryClient.invalidateQueries({ queryKey: invitationKeys.organization(orgId) });
      // The seat is free again: the user count comes with the profile.
      void refreshProfile();
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <ConfirmDialog
      opened={invitation !== null}
      title={t("staff.cancel_invitation")}
      message={t("staff.cancel_invitation_confirm", { email: invitation?.email ?? "" })}
      confirmLabel={t("staff.cancel_invitation")}
      cancelLabel={t("staff.keep_invitation")}
      busy={cancel.isPending}
      onConfirm={() => invitation && cancel.mutate(invitation.id)}
      onClose={onClose}
    />
  );
}
