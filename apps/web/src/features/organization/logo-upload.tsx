import { Avatar, Button, FileButton, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useDashboard } from "../../api/dashboard-context.tsx";
import { organizationKeys, uploadOrganizationLogo } from "../../api/organizations.ts";
import { Alert } from "../../ui/alert.tsx";
import { useAlerts } from "../../ui/alerts-provider.tsx";
import { describeError } from "../../ui/error-text.ts";

export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"];
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** Why a chosen file cannot be a logo, or null when it can (the server checks again). */
export function checkLogoFile(file: File): "type" | "size" | null {
  if (!LOGO_TYPES.includes(file.type)) return "type";
  if (file.size > LOGO_MAX_BYTES) return "size";
  return null;
}

export function LogoUpload({ orgId, logo, title }: { orgId: number; logo: string | null; title: string }) {
  const { t } = useTranslation();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const { refreshProfile } = useDashboard();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const upload = useMutation({
    mutationFn: (chosen: File) => uploadOrganizationLogo(orgId, chosen),
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationKeys.detail(orgId), organization);
      void refreshProfile();
      setFile(null);
      alerts.show({ type: "success", message: t("settings.logo_saved") });
    },
    onError: (error) => setProblem(describeError(error, t)),
  });

  const choose = (chosen: File | null) => {
    setProblem(null);
    if (!chosen) return;
    const reason = checkLogoFile(chosen);
    if (reason) {
      setProblem(t(`settings.logo_${reason}`));
      return;
    }
    setFile(chosen);
  };

  return (
    <Stack gap="sm">
      {problem ? <Alert type="error" message={problem} timeout={0} onClose={() => setProblem(null)} /> : null}
      <Group gap="md">
        <Avatar
          src={preview ?? logo}
          size={72}
          radius="md"
          color="blue"
          alt={t("settings.logo_alt", { title })}
        >
          {title.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack gap={4}>
          <Text fz="sm" c="dimmed">
            {preview ? t("settings.logo_preview") : t("settings.logo_hint")}
          </Text>
          <Group gap="xs">
            <FileButton onChange={choose} accept={LOGO_TYPES.join(",")}>
              {(props) => (
                <Button variant="default" size="xs" {...props}>
                  {t("settings.logo_choose")}
                </Button>
              )}
            </FileButton>
            {file ? (
              <Button size="xs" loading={upload.isPending} onClick={() => upload.mutate(file)}>
                {t("settings.logo_upload")}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Group>
    </Stack>
  );
}
