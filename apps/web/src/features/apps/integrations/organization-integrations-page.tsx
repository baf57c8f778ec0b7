// The organization's webhooks and chat notifications across its apps, in one place for its admins.
import { Badge, Code, Group, Paper, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { type ChatChannelListItem, integrationKeys, listChatChannels } from "../../../api/integrations.ts";
import { isAdminRole } from "../../../api/roles.ts";
import { PageFrame, ProfileGate, Section } from "../../../ui/page-frame.tsx";
import { QueryList } from "../../../ui/query-list.tsx";
import { AppSettingsLink, WebhooksSection } from "./webhooks-section.tsx";

export function OrganizationIntegrationsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("org_integrations.title")} description={t("org_integrations.description")}>
      <ProfileGate needsOrg allow={isAdminRole}>
        {(_profile, org) =>
          org ? (
            <Stack gap="lg">
              {/* The section brings its own heading and its Add button. */}
              <Paper withBorder radius="md" p={{ base: "md", sm: "lg" }} component="section">
                <WebhooksSection orgId={org.org_id} appId={null} />
              </Paper>
              <Section title={t("integrations.chat_title")}>
                <ChatChannels orgId={org.org_id} />
              </Section>
            </Stack>
          ) : null
        }
      </ProfileGate>
    </PageFrame>
  );
}

function ChatChannels({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: integrationKeys.chatChannels(orgId),
    queryFn: () => listChatChannels(orgId),
  });
  return (
    <Stack gap="sm">
      <Text c="dimmed" fz="sm">
        {t("org_integrations.chat_intro")}
      </Text>
      <QueryList query={query} empty={t("org_integrations.no_chats")}>
        {(channels) => channels.map((channel) => <ChatChannelCard key={channel.app} channel={channel} />)}
      </QueryList>
    </Stack>
  );
}

function ChatChannelCard({ channel }: { channel: ChatChannelListItem }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md" data-testid="chat-channel-card">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <AppSettingsLink appId={channel.app} title={channel.app_title} />
          <Group gap={6}>
            <Badge variant="light">{t(`integrations.formats.${channel.chat_format ?? "slack"}`)}</Badge>
            <Badge variant="outline">{channel.environment}</Badge>
          </Group>
        </Group>
        <Code style={{ wordBreak: "break-all" }}>{channel.slack_webhook}</Code>
        {channel.slack_channel ? <Text fz="sm">{channel.slack_channel}</Text> : null}
      </Stack>
    </Paper>
  );
}
