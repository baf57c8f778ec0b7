// One claimed domain: its status, the TXT record that proves it, "Verify now" and removal.
import { Badge, Button, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { readFormErrors } from "../../api/form-errors.ts";
import { type SsoDomain, ssoDomainKeys, verifySsoDomain } from "../../api/sso.ts";
import { Alert } from "../../ui/alert.tsx";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { formatDateTime } from "../../ui/format/date.ts";
import { CopyLine } from "./sign-on-rules.tsx";

/** The proof lapses after this many daily re-checks in a row miss the record (as the server counts). */
const LAPSE_AFTER_CHECKS = 3;

/** Proven, proven but the daily re-checks stopped finding the record, or not proven yet. */
function claimStatus(claim: SsoDomain): "proven" | "failing" | "waiting" {
  if (!claim.verified) return "waiting";
  return claim.failed_checks > 0 ? "failing" : "proven";
}

const STATUS_COLORS = { proven: "green", failing: "orange", waiting: "yellow" } as const;

export function DomainClaim({
  orgId,
  claim,
  onRemove,
}: {
  orgId: number;
  claim: SsoDomain;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const status = claimStatus(claim);
  const verify = useMutation({
    mutationFn: () => verifySsoDomain(orgId, claim.id),
    onSuccess: (saved) => {
      queryClient.setQueryData<SsoDomain[]>(ssoDomainKeys.list(orgId), (list) =>
        (list ?? []).map((item) => (item.id === saved.id ? saved : item)),
      );
      alerts.show({ type: "success", message: t("sign_on.domain_proven", { domain: saved.domain }) });
    },
    // The lookup is recorded even when it misses: the list shows when it was checked.
    onError: () => void queryClient.invalidateQueries({ queryKey: ssoDomainKeys.list(orgId) }),
  });
  const failure = verify.isError ? readFormErrors(verify.error, [], t("errors.server")).general : null;

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text fw={600}>{claim.domain}</Text>
          <Badge color={STATUS_COLORS[status]} variant="light">
            {t(`sign_on.domain_status.${status}`)}
          </Badge>
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="light" loading={verify.isPending} onClick={() => verify.mutate()}>
            {t("sign_on.verify_now")}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={onRemove}
            aria-label={t("sign_on.remove_domain_title", { domain: claim.domain })}
          >
            {t("sign_on.remove_domain")}
          </Button>
        </Group>
      </Group>
      {status === "proven" && claim.verified_at ? (
        <Text fz="sm" c="dimmed">
          {t("sign_on.domain_proven_since", { date: formatDateTime(claim.verified_at, i18n.language) })}
        </Text>
      ) : null}
      {status === "failing" ? (
        <Text fz="sm" c="orange.9">
          {t("sign_on.domain_failing", { missed: claim.failed_checks, limit: LAPSE_AFTER_CHECKS })}
        </Text>
      ) : null}
      {status !== "proven" ? (
        <Stack gap={4}>
          <Text fz="sm">{t("sign_on.domain_instructions")}</Text>
          <CopyLine label={t("sign_on.txt_name")} value={claim.txt_name} />
          <CopyLine label={t("sign_on.txt_value")} value={claim.txt_value} />
        </Stack>
      ) : null}
      {claim.checked_at ? (
        <Text fz="xs" c="dimmed">
          {t("sign_on.domain_checked", { date: formatDateTime(claim.checked_at, i18n.language) })}
        </Text>
      ) : null}
      {failure ? <Alert key={verify.submittedAt} type="error" message={failure} timeout={0} /> : null}
    </Stack>
  );
}
