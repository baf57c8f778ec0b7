import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookReceiver } from "../../../test/helpers/webhook-receiver.ts";
import { chatFormatOf } from "./chat-messages.ts";
import { keptReplyBytes, postJson } from "./webhook-sender.ts";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterAll(() => receiver.close());

const send = (url: string, allowPrivateTargets = true) =>
  postJson(url, '{"type":"x"}', {}, { timeoutMs: 1000, allowPrivateTargets });

describe("posting to an endpoint", () => {
  it("refuses loopback and private addresses unless the instance allows them", async () => {
    const url = receiver.script("/private", [{ status: 200 }]);
    const refused = await send(url.replace("127.0.0.1", "localhost"), false);
    expect(refused).toMatchObject({ status: null, error: "localhost is not a public address" });
    expect(receiver.at("/private")).toHaveLength(0);
    expect(await send(url, true)).toMatchObject({ status: 200 });
  });

  it("keeps only the first kilobyte of a long answer", async () => {
    const url = receiver.script("/long", [{ status: 500, body: "x".repeat(200_000) }]);
    const result = await send(url);
    expect(result.status).toBe(500);
    expect(result.body).toHaveLength(keptReplyBytes);
  });

  it("does not follow redirects and stops waiting at the deadline", async () => {
    const landing = receiver.script("/landing", [{ status: 200 }]);
    const moved = receiver.script("/moved", [{ status: 301, location: landing }]);
    expect(await send(moved)).toMatchObject({ status: 301 });
    expect(receiver.at("/landing")).toHaveLength(0);
    const slow = receiver.script("/slow", ["hang"]);
    const result = await send(slow);
    expect(result).toMatchObject({ status: null, error: "No answer within 1 s." });
    expect(result.durationMs).toBeGreaterThanOrEqual(900);
  });
});

describe("telling chat services apart by their webhook URL", () => {
  it.each([
    ["https://hooks.slack.com/services/T0/B0/xyz", "slack"],
    ["https://discord.com/api/webhooks/1/abc", "discord"],
    ["https://canary.discordapp.com/api/webhooks/1/abc", "discord"],
    ["https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke", "teams"],
    [
      "https://default0a1b.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/1",
      "teams",
    ],
    ["https://chat.example.com/hooks/abc", "slack"],
    ["https://notdiscord.com/api/webhooks/1", "slack"],
  ])("%s is %s", (url, format) => {
    expect(chatFormatOf(url)).toBe(format);
  });

  it("takes the format chosen over the URL", () => {
    expect(chatFormatOf("https://hooks.slack.com/services/x", "teams")).toBe("teams");
  });
});
