CREATE TABLE "feedback_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "feedback_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"application_id" bigint NOT NULL,
	"version_id" bigint,
	"status" smallint DEFAULT 0 NOT NULL,
	"tag" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"build_version" text DEFAULT '' NOT NULL,
	"system_version" text DEFAULT '' NOT NULL,
	"device_name" text DEFAULT '' NOT NULL,
	"device_id" text DEFAULT '' NOT NULL,
	"navigation_stack" text DEFAULT '' NOT NULL,
	"image_key" text,
	"image_type" text DEFAULT '' NOT NULL,
	"image_width" integer DEFAULT 0 NOT NULL,
	"image_height" integer DEFAULT 0 NOT NULL,
	"image_size" integer DEFAULT 0 NOT NULL,
	"assignee_id" bigint,
	"internal_note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "feedback_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "autoupdate_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "feedback_items" ADD CONSTRAINT "feedback_items_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_items" ADD CONSTRAINT "feedback_items_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_items" ADD CONSTRAINT "feedback_items_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_items" ADD CONSTRAINT "feedback_items_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feedback_items_app_idx" ON "feedback_items" USING btree ("application_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feedback_items_org_idx" ON "feedback_items" USING btree ("organization_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feedback_items_version_idx" ON "feedback_items" USING btree ("version_id");