// The app page's "Distribution" tab: install links, testers and groups, app mails, sending.
import { Button, Divider, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApplicationRecord, MyAppRole } from "../../../api/applications.ts";
import { listTesterGroups, testerKeys } from "../../../api/testers.ts";
import { AppMails } from "./app-mails.tsx";
import { Deliveries } from "./deliveries.tsx";
import { TesterGroups } from "./groups.tsx";
import { InstallLinks } from "./install-links.tsx";
import { SendDialog } from "./send-dialog.tsx";
import { Testers } from "./testers.tsx";

export function DistributionTab({ app, rights }: { app: ApplicationRecord; rights: MyAppRole }) {
  const { t } = useTranslation();
  // Admins and team managers who may upload to the app manage its distribution.
  const canManage = rights.can_upload || rights.can_edit;
  const [sending, setSending] = useState(false);
  const groups = useQuery({
    queryKey: testerKeys.groups(app.id),
    queryFn: () => listTesterGroups(app.id),
    enabled: canManage,
  });
  return (
    <Stack gap="xl">
      {canManage ? (
        <Group justify="space-between" gap="sm">
          <Text c="dimmed" fz="sm" style={{ flex: "1 1 240px" }}>
            {t("send.intro")}
          </Text>
          <Button onClick={() => setSending(true)}>{t("send.open")}</Button>
        </Group>
      ) : null}
      <InstallLinks appId={app.id} canManage={canManage} />
      {canManage ? (
        <>
          <Divider />
          <Testers appId={app.id} groups={groups.data ?? []} />
          <Divider />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
            <TesterGroups appId={app.id} groups={groups.data ?? []} />
            <AppMails appId={app.id} />
          </SimpleGrid>
          <Divider />
          <Deliveries appId={app.id} />
        </>
      ) : null}
      {sending ? (
        <SendDialog
          appId={app.id}
          versionId={app.current_version?.id ?? null}
          whatsNew={app.current_version?.whats_new ?? ""}
          onClose={() => setSending(false)}
        />
      ) : null}
    </Stack>
  );
}
