import { Button, Code, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { accountKeys, fetchHasApiKey, type OrgData, type Profile, rotateApiKey } from "../../api/account.ts";
import { fetchMemberships, staffKeys } from "../../api/staff.ts";
import { Alert } from "../../ui/alert.tsx";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { copyText } from "../../ui/copy.ts";
import { describeError } from "../../ui/error-text.ts";

export function ApiKeySection({ profile, org }: { profile: Profile; org: OrgData | null }) {
  const { t } = useTranslation();
  if (!org) {
    return (
      <Text fz="sm" c="dimmed">
        {t("apikey.no_org")}
      </Text>
    );
  }
  return <ApiKey key={org.org_id} profile={profile} org={org} />;
}

function ApiKey({ profile, org }: { profile: Profile; org: OrgData }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const [key, setKey] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  // Warning that a previous key stops working makes sense only when there is one.
  const hasKey = useQuery({ queryKey: accountKeys.apiKeyState(), queryFn: fetchHasApiKey });
  // The key belongs to the caller's own membership of the current organization.
  const own = useQuery({
    queryKey: staffKeys.own(org.org_id, profile.email),
    queryFn: async () => {
      const page = await fetchMemberships(org.org_id, 1, profile.email);
      return page.results.find((member) => member.userid === profile.user_id) ?? null;
    },
  });
  const rotate = useMutation({
    mutationFn: (membershipId: number) => rotateApiKey(membershipId),
    onSuccess: (reply) => {
      setKey(reply.api_key);
      setConfirming(false);
      queryClient.setQueryData(accountKeys.apiKeyState(), true);
    },
    onError: () => setConfirming(false),
  });

  const membershipId = own.data?.id;
  return (
    <Stack gap="sm">
      <Text fz="sm" c="dimmed">
        {t("apikey.description", { org: org.title })}
      </Text>
      {rotate.isError ? <Alert type="error" message={describeError(rotate.error, t)} timeout={0} /> : null}
      {key ? (
        <Stack gap="xs">
          <Text fz="sm" fw={600}>
            {t("apikey.shown_once")}
          </Text>
          <Code block data-testid="api-key">
            {key}
          </Code>
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              onClick={async () => {
                if (await copyText(key)) alerts.show({ type: "success", message: t("COPIED TO CLIPBOARD") });
              }}
            >
              {t("apikey.copy")}
            </Button>
            <Button size="xs" variant="subtle" onClick={() => setKey(null)}>
              {t("apikey.hide")}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Button
          variant="light"
          style={{ alignSelf: "flex-start" }}
          disabled={membershipId === undefined}
          loading={own.isPending || hasKey.isPending}
          onClick={() => setConfirming(true)}
        >
          {t("apikey.generate")}
        </Button>
      )}
      <ConfirmDialog
        opened={confirming}
        title={t("apikey.generate")}
        message={hasKey.data === false ? t("apikey.confirm_first") : t("apikey.confirm")}
        confirmLabel={t("apikey.generate")}
        busy={rotate.isPending}
        onConfirm={() => membershipId !== undefined && rotate.mutate(membershipId)}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
