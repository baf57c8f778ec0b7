// The send-to-testers form state and how it becomes the spec §3 payload.
import type { SendToTestersRequest, TesterRecipients } from "../../../api/testers.ts";

/** Which payload field carries the chosen version of each platform (spec §3 names). */
export const VERSION_FIELDS = {
  0: "apk_version",
  1: "ios_version",
  2: "msi_version",
  3: "dmg_version",
} as const satisfies Record<number, keyof SendToTestersRequest>;

export interface PlatformChoice {
  include: boolean;
  /** "" offers the newest build. */
  version: string;
}

export interface SendForm {
  platforms: Record<number, PlatformChoice>;
  testers: number[];
  users: number[];
  mails: number[];
  whatsNew: string;
  tutorial: boolean;
}

export function initialSendForm(data: TesterRecipients, whatsNew = ""): SendForm {
  const platforms: Record<number, PlatformChoice> = {};
  for (const platform of data.platforms) {
    const asked = data.version !== null && platform.versions.some((item) => item.id === data.version);
    platforms[platform.app] = { include: true, version: asked ? String(data.version) : "" };
  }
  return { platforms, testers: [], users: [], mails: [], whatsNew, tutorial: false };
}

export function buildSendPayload(data: TesterRecipients, form: SendForm): SendToTestersRequest {
  const payload: SendToTestersRequest = {
    app2os: [],
    testers_id: form.testers,
    users_id: form.users,
    emails_id: form.mails,
    whats_new: form.whatsNew,
    is_show_tutorial: form.tutorial,
  };
  for (const platform of data.platforms) {
    const choice = form.platforms[platform.app];
    if (!choice?.include) continue;
    payload.app2os?.push(platform.app);
    const field = VERSION_FIELDS[platform.app_type as keyof typeof VERSION_FIELDS];
    if (field && choice.version) payload[field] = Number(choice.version);
  }
  return payload;
}

export function recipientCount(form: SendForm): number {
  return form.testers.length + form.users.length + form.mails.length;
}

export function toggle(list: number[], id: number, on: boolean): number[] {
  const without = list.filter((item) => item !== id);
  return on ? [...without, id] : without;
}

/** Adds or removes every id of a group at once. */
export function toggleAll(list: number[], ids: number[], on: boolean): number[] {
  const without = list.filter((item) => !ids.includes(item));
  return on ? [...without, ...ids] : without;
}
