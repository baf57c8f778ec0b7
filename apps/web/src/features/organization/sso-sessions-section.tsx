// Sessions the organization's single sign-on made: an admin ends those of someone who left.
import { Button, Paper, Table, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { fetchSsoSessions, revokeSsoSessions, ssoSessionKeys } from "../../api/sso.ts";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { describeError } from "../../ui/error-text.ts";
import { formatDateTime } from "../../ui/format/date.ts";
import { LoadError } from "../../ui/load-error.tsx";
import { Section } from "../../ui/page-frame.tsx";

export function SsoSessionsSection({ orgId }: { orgId: number }) {
  const { t, i18n } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ssoSessionKeys.list(orgId), queryFn: () => fetchSsoSessions(orgId) });
  const revoke = useMutation({
    mutationFn: (userId: number) => revokeSsoSessions(orgId, userId),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: ssoSessionKeys.list(orgId) });
      alerts.show({ type: "success", message: t("sign_on.sessions_ended", { count: answer.revoked }) });
    },
    onError: (error) => alerts.show({ type: "error", message: describeError(error, t) }),
  });
  return (
    <Section title={t("sign_on.sessions_title")}>
      <Text fz="sm" c="dimmed">
        {t("sign_on.sessions_intro")}
      </Text>
      {query.isPending ? (
        <Text c="dimmed">{t("common.loading")}</Text>
      ) : query.isError ? (
        <LoadError onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <Text c="dimmed">{t("sign_on.no_sessions")}</Text>
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="xs" aria-label={t("sign_on.sessions_title")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("sign_on.person")}</Table.Th>
                  <Table.Th>{t("sign_on.signed_in")}</Table.Th>
                  <Table.Th>{t("sign_on.last_used")}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.map((row) => (
                  <Table.Tr key={row.user.id}>
                    <Table.Td>
                      <Text fz="sm">
                        {[row.user.first_name, row.user.last_name].filter(Boolean).join(" ") ||
                          row.user.email}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {row.user.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatDateTime(row.signed_in_at, i18n.language)}</Table.Td>
                    <Table.Td>
                      {row.last_used_at ? formatDateTime(row.last_used_at, i18n.language) : "—"}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        loading={revoke.isPending && revoke.variables === row.user.id}
                        onClick={() => revoke.mutate(row.user.id)}
                        aria-label={t("sign_on.end_sessions_of", { email: row.user.email })}
                      >
                        {t("sign_on.end_sessions")}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </Section>
  );
}
