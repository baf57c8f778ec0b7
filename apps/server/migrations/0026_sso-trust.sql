CREATE TABLE "organization_invitations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "organization_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"email" text NOT NULL,
	"role" smallint NOT NULL,
	"team_ids" bigint[] DEFAULT '{}' NOT NULL,
	"project_ids" bigint[] DEFAULT '{}' NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"invited_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_domains" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sso_domains_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"verified_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"failed_checks" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_identities" (
	"organization_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_identities_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sso_link_requests" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"organization_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_second_factor_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"organization_id" bigint NOT NULL,
	"next_path" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_codes" ADD COLUMN "organization_id" bigint;--> statement-breakpoint
ALTER TABLE "sso_login_states" ADD COLUMN "link_user_id" bigint;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_link_requests" ADD CONSTRAINT "sso_link_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_link_requests" ADD CONSTRAINT "sso_link_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_second_factor_tickets" ADD CONSTRAINT "sso_second_factor_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_second_factor_tickets" ADD CONSTRAINT "sso_second_factor_tickets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_invitations_org_user_key" ON "organization_invitations" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "organization_invitations_user_idx" ON "organization_invitations" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_org_domain_key" ON "sso_domains" USING btree ("organization_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_verified_key" ON "sso_domains" USING btree ("domain") WHERE verified_at is not null;--> statement-breakpoint
CREATE INDEX "sso_identities_user_idx" ON "sso_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sso_link_requests_expires_idx" ON "sso_link_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sso_second_factor_tickets_expires_idx" ON "sso_second_factor_tickets" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "user_codes" ADD CONSTRAINT "user_codes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_login_states" ADD CONSTRAINT "sso_login_states_link_user_id_users_id_fk" FOREIGN KEY ("link_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- An organization's own sign-in used to open any account it named. What it did is undone here.
-- Accounts it activated without their owners: the activation (or invitation) link they were sent
-- is still unused and live, yet they are active and single sign-on signed them in.
UPDATE "users" u SET "is_active" = false
WHERE u."is_active"
  AND EXISTS (SELECT 1 FROM "user_codes" c WHERE c."user_id" = u."id"
    AND c."kind" IN ('activation', 'invitation') AND c."used_at" IS NULL AND c."expires_at" > now())
  AND EXISTS (SELECT 1 FROM "auth_tokens" t WHERE t."user_id" = u."id" AND t."sso_organization_id" IS NOT NULL);--> statement-breakpoint
-- Accounts its sign-in made (active, no password of their own): the organization whose sign-in
-- first opened them keeps the right to sign them in. Every other account must be linked anew.
INSERT INTO "sso_identities" ("organization_id", "user_id", "origin", "created_at")
SELECT DISTINCT ON (t."user_id") t."sso_organization_id", t."user_id", 'created', t."created_at"
FROM "auth_tokens" t
JOIN "users" u ON u."id" = t."user_id"
JOIN "memberships" m ON m."organization_id" = t."sso_organization_id" AND m."user_id" = t."user_id"
WHERE t."sso_organization_id" IS NOT NULL AND u."is_active" AND u."password_hash" IS NULL
ORDER BY t."user_id", t."created_at"
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Every session single sign-on made ends: some were made for people the provider did not own.
UPDATE "auth_tokens" SET "revoked_at" = now()
WHERE "sso_organization_id" IS NOT NULL AND "revoked_at" IS NULL;--> statement-breakpoint
-- Places given to people who never accepted them (invited, never signed in) become invitations,
-- with the teams and projects they were given.
INSERT INTO "organization_invitations"
  ("organization_id", "user_id", "email", "role", "team_ids", "project_ids", "first_name", "last_name",
   "invited_by", "created_at", "expires_at")
SELECT m."organization_id", m."user_id", u."email", m."role",
  coalesce((SELECT array_agg(tm."team_id" ORDER BY tm."team_id") FROM "team_members" tm
    JOIN "teams" te ON te."id" = tm."team_id"
    WHERE tm."user_id" = m."user_id" AND te."organization_id" = m."organization_id"), '{}'),
  coalesce((SELECT array_agg(pm."project_id" ORDER BY pm."project_id") FROM "project_members" pm
    JOIN "projects" p ON p."id" = pm."project_id"
    WHERE pm."user_id" = m."user_id" AND p."organization_id" = m."organization_id"), '{}'),
  u."first_name", u."last_name", m."invited_by", m."created_at", now() + interval '14 days'
FROM "memberships" m JOIN "users" u ON u."id" = m."user_id"
WHERE NOT u."is_active" AND u."password_hash" IS NULL AND m."role" <> 1;--> statement-breakpoint
DELETE FROM "team_members" tm USING "teams" te, "organization_invitations" i
WHERE te."id" = tm."team_id" AND i."user_id" = tm."user_id" AND i."organization_id" = te."organization_id";--> statement-breakpoint
DELETE FROM "project_members" pm USING "projects" p, "organization_invitations" i
WHERE p."id" = pm."project_id" AND i."user_id" = pm."user_id" AND i."organization_id" = p."organization_id";--> statement-breakpoint
DELETE FROM "memberships" m USING "organization_invitations" i
WHERE i."user_id" = m."user_id" AND i."organization_id" = m."organization_id";
