// The app page's "Integrations" tab (admins): the chat channel and the webhooks, with their logs.
import { Divider, Stack } from "@mantine/core";
import type { ApplicationRecord } from "../../../api/applications.ts";
import { ChatChannelSection } from "./chat-channel-section.tsx";
import { WebhooksSection } from "./webhooks-section.tsx";

export function IntegrationsTab({ app }: { app: ApplicationRecord }) {
  return (
    <Stack gap="xl">
      <ChatChannelSection appId={app.id} />
      <Divider />
      <WebhooksSection orgId={app.organization} appId={app.id} />
    </Stack>
  );
}
