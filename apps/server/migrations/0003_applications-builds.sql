CREATE TABLE "app_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "app_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"application_id" bigint NOT NULL,
	"user_id" bigint,
	"version_id" bigint,
	"action" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "applications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "applications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"title" text NOT NULL,
	"app_type" smallint NOT NULL,
	"environment" text DEFAULT 'Production' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"app_key" text NOT NULL,
	"bundle_id" text,
	"slack_webhook_sealed" text,
	"slack_channel" text DEFAULT '' NOT NULL,
	"ready_to_sale" boolean DEFAULT true NOT NULL,
	"current_version_id" bigint,
	"versions_count" integer DEFAULT 0 NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "preloads" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "preloads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"path" text NOT NULL,
	"organization_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"application_id" bigint,
	"app_type" smallint NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"icon_key" text,
	"build_info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upload_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" bigint NOT NULL,
	"user_id" bigint,
	"application_id" bigint,
	"version_id" bigint,
	"kind" text NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"error_code" integer,
	"detail" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"application_id" bigint NOT NULL,
	"version" text NOT NULL,
	"build_number" text NOT NULL,
	"state" text DEFAULT 'ready' NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"icon_key" text,
	"universal_apk_key" text,
	"universal_apk_size" bigint DEFAULT 0 NOT NULL,
	"bundle_id" text,
	"min_os_version" text,
	"build_info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"whats_new" text DEFAULT '' NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"ready_to_sale" boolean DEFAULT true NOT NULL,
	"git_branch" text,
	"git_tag" text,
	"git_commit" text,
	"uploaded_by" bigint,
	"download_count" integer DEFAULT 0 NOT NULL,
	"install_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_logs" ADD CONSTRAINT "app_logs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_logs" ADD CONSTRAINT "app_logs_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_logs" ADD CONSTRAINT "app_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preloads" ADD CONSTRAINT "preloads_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preloads" ADD CONSTRAINT "preloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preloads" ADD CONSTRAINT "preloads_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tasks" ADD CONSTRAINT "upload_tasks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tasks" ADD CONSTRAINT "upload_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tasks" ADD CONSTRAINT "upload_tasks_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tasks" ADD CONSTRAINT "upload_tasks_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_logs_app_idx" ON "app_logs" USING btree ("application_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "applications_app_key_key" ON "applications" USING btree ("app_key");--> statement-breakpoint
CREATE UNIQUE INDEX "applications_project_type_env_key" ON "applications" USING btree ("project_id","app_type","environment");--> statement-breakpoint
CREATE INDEX "applications_org_updated_idx" ON "applications" USING btree ("organization_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "preloads_path_key" ON "preloads" USING btree ("path");--> statement-breakpoint
CREATE INDEX "preloads_expires_idx" ON "preloads" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "upload_tasks_org_idx" ON "upload_tasks" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "versions_app_version_build_key" ON "versions" USING btree ("application_id","version","build_number");--> statement-breakpoint
CREATE INDEX "versions_app_created_idx" ON "versions" USING btree ("application_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "versions_org_idx" ON "versions" USING btree ("organization_id");