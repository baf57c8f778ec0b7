import { Alert, Anchor, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { useLimitWayOut } from "../../ui/limit-way-out.ts";

/** The owner's warning that more than three quarters of the storage is used (spec §9), and what lifts it. */
export function StorageWarning() {
  const { t } = useTranslation();
  const { currentOrg, storageWarning } = useDashboard();
  const wayOut = useLimitWayOut(currentOrg?.org_id ?? null, storageWarning);
  if (!storageWarning || !currentOrg) return null;
  return (
    <Alert color="orange" variant="light" mt="sm" p="xs" data-testid="storage-warning">
      <Text fz="sm" fw={600}>
        {t("menu.storage_warning", {
          used: currentOrg.space_used.toFixed(2),
          limit: currentOrg.space_limit.toFixed(2),
        })}
      </Text>
      {wayOut ? <Text fz="sm">{wayOut.text}</Text> : null}
      <Anchor component={Link} to="/dashboard/organization/plan" fz="sm">
        {t("menu.storage_upgrade")}
      </Anchor>
    </Alert>
  );
}
