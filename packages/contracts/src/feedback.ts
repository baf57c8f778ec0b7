import { z } from "zod";
import { pageQuery } from "./common.ts";

/** What a tester says the report is about (the SDK's `tag`). */
export const feedbackTags = ["bug", "design", "feedback"] as const;
export type FeedbackTag = (typeof feedbackTags)[number];

/**
 * Where a report stands: 0 new, 1 in progress, 2 resolved, 3 won't fix. As a list filter,
 * `status=4` means every open report (new or in progress), the inbox's default.
 */
export const feedbackStatuses = { new: 0, inProgress: 1, resolved: 2, wontFix: 3 } as const;
export const openFeedbackFilter = 4;
export type FeedbackStatus = (typeof feedbackStatuses)[keyof typeof feedbackStatuses];

const person = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});

export const feedbackItem = z
  .object({
    id: z.number().int(),
    app: z.number().int(),
    app_title: z.string(),
    app_type: z.number().int(),
    organization: z.number().int(),
    status: z.number().int().min(0).max(3),
    tag: z.enum(feedbackTags),
    description: z.string(),
    email: z.string(),
    build_version: z.string(),
    system_version: z.string(),
    device_name: z.string(),
    device_uudid: z.string(),
    navigation_stack: z.string(),
    /** The screenshot (a short-lived link), its pixel size. */
    image: z.string().nullable(),
    image_width: z.number().int(),
    image_height: z.number().int(),
    /** The uploaded build whose version matches `build_version`, when there is one. */
    version: z
      .object({ id: z.number().int(), version: z.string(), build_version_number: z.string() })
      .nullable(),
    assignee: person.nullable(),
    internal_note: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Feedback" });
export type FeedbackItem = z.infer<typeof feedbackItem>;

/** Sortable fields; DRF-style `ordering`, `-` for descending, a descending id always follows. */
export const feedbackOrderings = ["created_at", "status", "tag", "build_version", "device_name"] as const;

export const feedbackListQuery = pageQuery.extend({
  /** One app's reports. */
  app_id: z.coerce.number().int().positive().optional(),
  /** Every app of the organization (the inbox). */
  app__organization: z.coerce.number().int().positive().optional(),
  status: z.coerce.number().int().min(0).max(4).optional(),
  tag: z.enum(feedbackTags).optional(),
  build_version: z.string().trim().max(100).optional(),
  device: z.string().trim().max(100).optional(),
  ordering: z.string().trim().max(100).optional(),
});
export type FeedbackListQuery = z.infer<typeof feedbackListQuery>;

export const feedbackPatch = z.object({
  status: z.number().int().min(0).max(3).optional(),
  /** A user id of the organization, or null to unassign. */
  assignee: z.number().int().positive().nullable().optional(),
  internal_note: z.string().max(5000, "Ensure this field has no more than 5000 characters.").optional(),
});
export type FeedbackPatch = z.infer<typeof feedbackPatch>;

/** Bodies of the SDK calls (`/api/check_last_version/` and friends); every field may be missing. */
export const sdkKeys = z.object({
  sdk_key: z.string().max(200).optional().nullable(),
  app_key: z.string().max(200).optional().nullable(),
});
export const sdkVersionCheck = sdkKeys.extend({ version: z.string().max(100).optional().nullable() });

export const sdkVersionCheckResult = z
  .object({
    create_at: z.string(),
    whats_new: z.string(),
    version: z.string().nullable(),
    your_version: z.string(),
    is_new_version: z.boolean(),
    is_autoupdate_enabled: z.boolean(),
  })
  .meta({ id: "SdkVersionCheck" });

export const sdkUpdateUrl = z.object({ update_url: z.string() }).meta({ id: "SdkUpdateUrl" });

export const sdkFeedbackEnabled = z
  .object({
    is_feedback_enabled: z.boolean(),
    error_code: z.array(z.string()),
    error_description: z.array(z.string()),
  })
  .meta({ id: "SdkFeedbackEnabled" });

/** What the iOS SDK decodes after sending feedback: every field, as strings. */
export const sdkFeedbackReceipt = z
  .object({
    image: z.string(),
    timestamp: z.string(),
    tag: z.string(),
    description: z.string(),
    email: z.string(),
    build_version: z.string(),
    system_version: z.string(),
    device_name: z.string(),
    device_uudid: z.string(),
    navigation_stack: z.string(),
  })
  .meta({ id: "SdkFeedbackReceipt" });
