import { Alert, Anchor, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useDashboard } from "../../api/dashboard-context.tsx";

/** The owner's warning that more than three quarters of the storage is used (spec §9). */
export function StorageWarning() {
  const { t } = useTranslation();
  const { currentOrg, storageWarning } = useDashboard();
  if (!storageWarning || !currentOrg) return null;
  return (
    <Alert color="orange" variant="light" mt="sm" p="xs" data-testid="storage-warning">
      <Text fz="sm" fw={600}>
        {t("menu.storage_warning", {
          used: currentOrg.space_used.toFixed(2),
          limit: currentOrg.space_limit.toFixed(2),
        })}
      </Text>
      <Anchor component={Link} to="/dashboard/organization/plan" fz="sm">
        {t("menu.storage_upgrade")}
      </Anchor>
    </Alert>
  );
}
