import type { EventPayload } from "./event-payload.ts";

export type ChatFormat = "slack" | "teams" | "discord";

/**
 * Which chat service an incoming-webhook URL belongs to. Anything unknown gets Slack's format,
 * which Mattermost, Rocket.Chat and most self-hosted chats accept too.
 */
export function chatFormatOf(url: string, chosen: string = "auto"): ChatFormat {
  if (chosen === "slack" || chosen === "teams" || chosen === "discord") return chosen;
  let host = "";
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return "slack";
  }
  const within = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  if (["discord.com", "discordapp.com"].some(within)) return "discord";
  // Teams "Workflows" (Power Automate) webhooks; the retired Office 365 connectors lived on webhook.office.com.
  if (["logic.azure.com", "powerplatform.com", "powerautomate.com", "webhook.office.com"].some(within))
    return "teams";
  return "slack";
}

const eventTitles: Record<string, string> = {
  "build.uploaded": "New build uploaded",
  "build.ready": "New build ready to install",
  "build.deleted": "Build deleted",
  "build.sent_to_testers": "Build sent to testers",
  "tester.installed": "Build installed",
  "feedback.received": "New feedback",
  "store_upload.finished": "Store upload finished",
  "store_upload.failed": "Store upload failed",
  "plan.limit_reached": "Plan limit reached",
  "webhook.test": "Test message",
};

/** The facts of a payload every chat message shows, in reading order. */
function summary(payload: EventPayload) {
  const { app, build, organization } = payload.data;
  const title = eventTitles[payload.type] ?? payload.type;
  const heading = app ? `${title}: ${app.title}` : `${title}: ${organization.title}`;
  const lines: string[] = [];
  if (build) lines.push(`Version ${build.version} (${build.build_number})`);
  if (app) lines.push(`${app.platform} · ${app.environment}`);
  const message = payload.data.message;
  if (typeof message === "string") lines.push(message);
  const recipients = payload.data.recipients;
  if (typeof recipients === "number") lines.push(`${recipients} recipient${recipients === 1 ? "" : "s"}`);
  const limit = payload.data.limit;
  if (typeof limit === "string") lines.push(limit);
  const notes = build?.whats_new?.trim() ? build.whats_new.trim().slice(0, 1500) : "";
  const link = build?.install_url ?? app?.dashboard_url ?? null;
  const linkLabel = build?.install_url ? "Install" : "Open in Tarmac";
  return { heading, lines, notes, link, linkLabel, icon: build?.icon_url ?? null };
}

/** Slack's mrkdwn treats these three as markup. */
function slackEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function slackMessage(payload: EventPayload, channel: string) {
  const s = summary(payload);
  const text = [`*${slackEscape(s.heading)}*`, ...s.lines.map(slackEscape)].join("\n");
  const section: Record<string, unknown> = { type: "section", text: { type: "mrkdwn", text } };
  if (s.icon) section.accessory = { type: "image", image_url: s.icon, alt_text: "App icon" };
  const blocks: Record<string, unknown>[] = [section];
  if (s.notes) {
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: `*Release notes*\n${slackEscape(s.notes)}` },
    });
  }
  if (s.link) {
    blocks.push({
      type: "actions",
      elements: [
        { type: "button", text: { type: "plain_text", text: s.linkLabel }, url: s.link, style: "primary" },
      ],
    });
  }
  return { ...(channel ? { channel } : {}), text: `${s.heading} ${s.lines.join(" · ")}`.trim(), blocks };
}

function teamsMessage(payload: EventPayload) {
  const s = summary(payload);
  const header: Record<string, unknown>[] = [
    { type: "TextBlock", text: s.heading, weight: "Bolder", size: "Medium", wrap: true },
    ...s.lines.map((line) => ({
      type: "TextBlock",
      text: line,
      isSubtle: true,
      spacing: "None",
      wrap: true,
    })),
  ];
  const body: Record<string, unknown>[] = s.icon
    ? [
        {
          type: "ColumnSet",
          columns: [
            {
              type: "Column",
              width: "auto",
              items: [{ type: "Image", url: s.icon, size: "Small", altText: "App icon" }],
            },
            { type: "Column", width: "stretch", items: header },
          ],
        },
      ]
    : header;
  if (s.notes) body.push({ type: "TextBlock", text: s.notes, wrap: true });
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body,
          ...(s.link ? { actions: [{ type: "Action.OpenUrl", title: s.linkLabel, url: s.link }] } : {}),
        },
      },
    ],
  };
}

function discordMessage(payload: EventPayload) {
  const s = summary(payload);
  const description = [
    ...s.lines,
    ...(s.notes ? ["", s.notes] : []),
    ...(s.link ? ["", `[${s.linkLabel}](${s.link})`] : []),
  ]
    .join("\n")
    .slice(0, 4000);
  return {
    // Discord would otherwise turn "@everyone" in release notes into a ping.
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: s.heading.slice(0, 256),
        description,
        ...(s.link ? { url: s.link } : {}),
        ...(s.icon ? { thumbnail: { url: s.icon } } : {}),
        color: 0x2f6fed,
        timestamp: payload.timestamp,
      },
    ],
  };
}

/** The body a chat service's incoming webhook takes for this event. */
export function chatMessage(format: ChatFormat, payload: EventPayload, channel = ""): object {
  if (format === "teams") return teamsMessage(payload);
  if (format === "discord") return discordMessage(payload);
  return slackMessage(payload, channel);
}
