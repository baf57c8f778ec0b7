import { z } from "zod";

/** Languages a push message can be written in (the subscribing browser's interface language). */
export const pushLanguages = ["en", "de", "ru"] as const;

/** The server's VAPID public key (base64url, uncompressed P-256 point) for PushManager.subscribe. */
export const pushPublicKey = z.object({ public_key: z.string() });
export type PushPublicKey = z.infer<typeof pushPublicKey>;

const base64Url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, "Must be base64url text.");

/** A browser's PushSubscription as `toJSON()` gives it, plus the language to write messages in. */
export const pushSubscriptionInput = z.object({
  endpoint: z
    .string()
    .max(2048, "Ensure this field has no more than 2048 characters.")
    .refine((value) => URL.canParse(value) && new URL(value).protocol === "https:", {
      message: "Enter a valid https URL.",
    }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64Url.max(200, "Ensure this field has no more than 200 characters."),
    auth: base64Url.max(100, "Ensure this field has no more than 100 characters."),
  }),
  language: z.enum(pushLanguages).default("en"),
});
export type PushSubscriptionInput = z.input<typeof pushSubscriptionInput>;

export const pushUnsubscribeInput = z.object({ endpoint: z.string().max(2048) });
export type PushUnsubscribeInput = z.infer<typeof pushUnsubscribeInput>;

/** One of the caller's subscriptions; its endpoint is a capability and is not shown. */
export const pushSubscriptionRecord = z.object({
  id: z.number().int(),
  /** The push service's host (e.g. fcm.googleapis.com), to tell devices apart. */
  service: z.string(),
  language: z.enum(pushLanguages),
  created_at: z.string(),
  last_sent_at: z.string().nullable(),
});
export type PushSubscriptionRecord = z.infer<typeof pushSubscriptionRecord>;

export const pushSubscriptionList = z.object({ results: z.array(pushSubscriptionRecord) });

/** What the service worker receives in a push (JSON, encrypted by the push protocol). */
export const pushMessage = z.object({
  title: z.string(),
  body: z.string(),
  /** Opened on a click, relative to the app's origin. */
  url: z.string(),
  /** Notifications with the same tag replace each other on the device. */
  tag: z.string(),
  kind: z.enum(["build", "feedback", "store_upload", "test"]),
});
export type PushMessage = z.infer<typeof pushMessage>;

export const pushTestResult = z.object({ sent: z.number().int() });
