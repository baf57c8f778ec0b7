import { Paper } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { PageFrame } from "../../ui/page-frame.tsx";
import { CreateOrganizationForm } from "./create-organization-form.tsx";

export function CreateOrganizationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PageFrame title={t("org.create_title")} description={t("org.create_description")}>
      <Paper withBorder radius="md" p={{ base: "md", sm: "lg" }}>
        <CreateOrganizationForm onCreated={() => navigate("/dashboard/organization/settings")} />
      </Paper>
    </PageFrame>
  );
}
