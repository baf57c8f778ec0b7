// Dashboard → Invitations: the organizations that invited the signed-in person, each to accept
// (the person becomes a member and the organization is selected) or to decline.
import { Badge, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client.ts";
import { useDashboard } from "../../api/dashboard-context.tsx";
import {
  acceptInvitation,
  declineInvitation,
  fetchMyInvitations,
  invitationKeys,
  type MyInvitation,
} from "../../api/invitations.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { describeError } from "../../ui/error-text.ts";
import { formatDate } from "../../ui/format/date.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { PageFrame } from "../../ui/page-frame.tsx";
import { PageLoader } from "../../ui/page-loader.tsx";
import { ROLE_COLORS, roleKey } from "../../ui/role-labels.ts";

export function InvitationsPage() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: invitationKeys.mine(), queryFn: fetchMyInvitations });
  const [declining, setDeclining] = useState<MyInvitation | null>(null);
  return (
    <PageFrame title={t("invitations.title")} description={t("invitations.description")}>
      {query.isPending ? (
        <PageLoader />
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <Text c="dimmed">{t("invitations.empty")}</Text>
      ) : (
        <Stack gap="md" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
          {query.data.map((invitation) => (
            <InvitationCard
              key={invitation.id}
              invitation={invitation}
              onDecline={() => setDeclining(invitation)}
            />
          ))}
        </Stack>
      )}
      <DeclineDialog invitation={declining} onClose={() => setDeclining(null)} />
    </PageFrame>
  );
}

/** The answer to an invitation that was cancelled or expired in the meantime. */
function answerError(error: unknown, t: TFunction): string {
  return error instanceof ApiError && error.status === 404 ? t("invitations.gone") : describeError(error, t);
}

function InvitationCard({ invitation, onDecline }: { invitation: MyInvitation; onDecline: () => void }) {
  const { t, i18n } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const { refreshProfile, selectOrg } = useDashboard();
  const organization = invitation.organization.title;
  const invitedOn = formatDate(invitation.created_at, i18n.language);
  const accept = useMutation({
    mutationFn: () => acceptInvitation(invitation.id),
    onSuccess: async (membership) => {
      alerts.show({ type: "success", message: t("invitations.accepted", { organization }) });
      // The new organization comes with the profile; it becomes the current one.
      await refreshProfile();
      selectOrg(membership.organization);
      void queryClient.invalidateQueries({ queryKey: invitationKeys.mine() });
    },
    onError: (error) => {
      alerts.show({ type: "error", message: answerError(error, t) });
      void queryClient.invalidateQueries({ queryKey: invitationKeys.mine() });
    },
  });
  return (
    <Paper component="li" withBorder radius="md" p={{ base: "md", sm: "lg" }}>
      <Stack gap="sm">
        <Group gap="sm">
          <Title order={2} fz="lg">
            {organization}
          </Title>
          <Badge color={ROLE_COLORS[invitation.role]} variant="light">
            {t(roleKey(invitation.role))}
          </Badge>
        </Group>
        <Text fz="sm">
          {invitation.invited_by
            ? t("invitations.invited_by", { name: invitation.invited_by, date: invitedOn })
            : t("invitations.invited_on", { date: invitedOn })}
        </Text>
        <Text fz="sm" c="dimmed">
          {t("invitations.expires", { date: formatDate(invitation.expires_at, i18n.language) })}
        </Text>
        <Group gap="sm">
          <Button
            loading={accept.isPending}
            onClick={() => accept.mutate()}
            aria-label={t("invitations.accept_to", { organization })}
          >
            {t("invitations.accept")}
          </Button>
          <Button
            variant="default"
            disabled={accept.isPending}
            onClick={onDecline}
            aria-label={t("invitations.decline_to", { organization })}
          >
            {t("invitations.decline")}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function DeclineDialog({ invitation, onClose }: { invitation: MyInvitation | null; onClose: () => void }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const organization = invitation?.organization.title ?? "";
  const decline = useMutation({
    mutationFn: (id: number) => declineInvitation(id),
    onSuccess: () => {
      alerts.show({ type: "success", message: t("invitations.declined", { organization }) });
      onClose();
    },
    onError: (error) => alerts.show({ type: "error", message: answerError(error, t) }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: invitationKeys.mine() }),
  });
  return (
    <ConfirmDialog
      opened={invitation !== null}
      title={t("invitations.decline_title", { organization })}
      message={t("invitations.decline_confirm", { organization })}
      confirmLabel={t("invitations.decline")}
      busy={decline.isPending}
      onConfirm={() => invitation && decline.mutate(invitation.id)}
      onClose={onClose}
    />
  );
}
