import { z } from "zod";
import { pageOf, pageQuery } from "./common.ts";

const id = z.number().int().positive();
const idList = z.array(id).max(5000);
const emailField = z
  .email("Enter a valid e-mail address.")
  .max(254, "Ensure this field has no more than 254 characters.")
  .transform((value) => value.trim().toLowerCase());
const nameField = z.string().trim().max(150, "Ensure this field has no more than 150 characters.");
/** Query-string id lists: `1,2,3` or the parameter repeated. */
const queryIdList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(","))
      .map((part) => part.trim())
      .filter((part) => part !== ""),
  )
  .pipe(z.array(z.coerce.number<string>().int().positive()).max(5000));
const queryFlag = z.enum(["1", "0", "true", "false"]).transform((value) => value === "1" || value === "true");

/** Spec §3 "Tester": email, app, groups; plus what the list shows. */
export const tester = z
  .object({
    id: z.number().int(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    app: z.number().int(),
    groups: z.array(z.number().int()),
    /** The account with this e-mail address, when one exists. */
    user: z.number().int().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "Tester" });
export type Tester = z.infer<typeof tester>;
export const testerPage = pageOf(tester);

/** One of `app` or `groups` (a group id) is required. */
export const testerListQuery = z
  .object({
    app: z.coerce.number().int().positive().optional(),
    groups: z.coerce.number().int().positive().optional(),
    search: z.string().trim().max(200).optional(),
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(500).optional(),
  })
  .refine((q) => q.app !== undefined || q.groups !== undefined, {
    message: "Give app or groups.",
    path: ["app"],
  });
export type TesterListQuery = z.infer<typeof testerListQuery>;

/** Adds the tester, or updates the names and groups of the one with this address. */
/**
 * `app` may be null or left out when `groups` names the groups (Updraft's form): the groups' app
 * is the tester's app.
 */
export const createTesterInput = z.object({
  email: emailField,
  app: id.nullish(),
  /** The tester's groups (replacing the old ones); left out, an existing tester keeps them. */
  groups: idList.optional(),
  first_name: nameField.optional(),
  last_name: nameField.optional(),
});
export type CreateTesterInput = z.infer<typeof createTesterInput>;

/** Spec §3 "Group of testers": app, title. */
export const testerGroup = z
  .object({
    id: z.number().int(),
    app: z.number().int(),
    title: z.string(),
    testers_count: z.number().int(),
    /** The group's testers' ids. */
    testers: z.array(z.number().int()),
  })
  .meta({ id: "TesterGroup" });
export type TesterGroup = z.infer<typeof testerGroup>;
export const testerGroupPage = pageOf(testerGroup);

export const appQuery = z.object({ app: z.coerce.number().int().positive() });
/** An app's list, paged like every list (page_size up to 100; the web asks for 100). */
export const appListQuery = appQuery.extend(pageQuery.shape);

export const createTesterGroupInput = z.object({
  app: id,
  title: z
    .string()
    .trim()
    .min(1, "This field may not be blank.")
    .max(150, "Ensure this field has no more than 150 characters."),
});
export type CreateTesterGroupInput = z.infer<typeof createTesterGroupInput>;

/** POST /api/upload-csv-app-group/ (multipart fields besides the `csv` file). */
export const testerCsvFields = z.object({
  app: z.coerce.number().int().positive(),
  group: z.coerce.number().int().positive(),
});
export const testerCsvResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  /** Line numbers of repeated addresses (the first occurrence is kept). */
  duplicates: z.array(z.number().int()),
});
export type TesterCsvResult = z.infer<typeof testerCsvResult>;
export const testerCsvErrors = z.object({
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
export type TesterCsvErrors = z.infer<typeof testerCsvErrors>;
export const testerCsvMaxBytes = 1024 * 1024;

/** Spec §3 "App mail": an extra recipient address of an app. */
export const appMail = z
  .object({ id: z.number().int(), app: z.number().int(), email: z.string(), created_at: z.string() })
  .meta({ id: "AppMail" });
export type AppMail = z.infer<typeof appMail>;
export const appMailPage = pageOf(appMail);
export const createAppMailInput = z.object({ email: emailField, app: id });
export type CreateAppMailInput = z.infer<typeof createAppMailInput>;

export const groupTester = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  user: z.number().int().nullable(),
});
export type GroupTester = z.infer<typeof groupTester>;

/** GET /api/applications/{id}/users_in_groups/: every group of the app with its testers. */
export const groupWithTesters = z.object({
  id: z.number().int(),
  app: z.number().int(),
  title: z.string(),
  testers: z.array(groupTester),
});
export type GroupWithTesters = z.infer<typeof groupWithTesters>;
export const usersInGroups = z.array(groupWithTesters);

/**
 * Spec §3 send-to-testers payload. `app2os`: ids of the project's apps (one per platform) whose
 * builds the mail offers; `*_version`: the version to offer for that platform (null = newest).
 */
export const sendToTestersInput = z.object({
  app2os: idList.default([]),
  apk_version: id.nullable().optional(),
  ios_version: id.nullable().optional(),
  msi_version: id.nullable().optional(),
  dmg_version: id.nullable().optional(),
  testers_id: idList.default([]),
  users_id: idList.default([]),
  emails_id: idList.default([]),
  whats_new: z.string().max(5000, "Ensure this field has no more than 5000 characters.").default(""),
  is_show_tutorial: z.boolean().default(false),
  is_system: z.boolean().default(false),
  is_integrated_to_store: z.boolean().default(false),
});
export type SendToTestersInput = z.infer<typeof sendToTestersInput>;

/** The same payload carried in a query string (GET ?emulate_email=1). */
export const sendToTestersQuery = z.object({
  ver: z.coerce.number().int().positive().optional(),
  emulate_email: queryFlag.optional(),
  app2os: queryIdList.optional(),
  apk_version: z.coerce.number().int().positive().optional(),
  ios_version: z.coerce.number().int().positive().optional(),
  msi_version: z.coerce.number().int().positive().optional(),
  dmg_version: z.coerce.number().int().positive().optional(),
  testers_id: queryIdList.optional(),
  users_id: queryIdList.optional(),
  emails_id: queryIdList.optional(),
  whats_new: z.string().max(5000).optional(),
  is_show_tutorial: queryFlag.optional(),
  is_system: queryFlag.optional(),
  is_integrated_to_store: queryFlag.optional(),
});
export type SendToTestersQuery = z.infer<typeof sendToTestersQuery>;

export const sendToTestersResult = z.object({ batch_id: z.string(), recipients: z.number().int() });
export type SendToTestersResult = z.infer<typeof sendToTestersResult>;

export const testerMailPreview = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type TesterMailPreview = z.infer<typeof testerMailPreview>;

export const testerMailBatch = z.object({
  batch_id: z.string(),
  created_at: z.string(),
  sent_by: z.number().int().nullable(),
  total: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
});
export type TesterMailBatch = z.infer<typeof testerMailBatch>;

export const pickerVersion = z.object({
  id: z.number().int(),
  version: z.string(),
  build_version_number: z.string(),
  date: z.string(),
});

/** GET /api/app-teams/{id}/: what the send-to-testers dialog offers. */
export const testerRecipients = z.object({
  app: z.number().int(),
  /** The version asked for with ?ver=, when it belongs to this app. */
  version: z.number().int().nullable(),
  /** The project's apps in this app's environment (one per platform) with their recent builds. */
  platforms: z.array(
    z.object({
      app: z.number().int(),
      app_type: z.number().int(),
      title: z.string(),
      versions: z.array(pickerVersion),
    }),
  ),
  groups: z.array(groupWithTesters),
  /** Testers in no group. */
  testers: z.array(groupTester),
  users: z.array(
    z.object({
      id: z.number().int(),
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      role: z.number().int(),
    }),
  ),
  app_mails: z.array(appMail),
  batches: z.array(testerMailBatch),
});
export type TesterRecipients = z.infer<typeof testerRecipients>;
