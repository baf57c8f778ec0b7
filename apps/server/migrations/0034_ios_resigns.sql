CREATE TABLE "ios_resigns" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ios_resigns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"application_id" bigint NOT NULL,
	"version_id" bigint NOT NULL,
	"task_id" text NOT NULL,
	"result_version_id" bigint,
	"created_by" bigint,
	"bundle_ids" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"certificate_subject" text NOT NULL,
	"certificate_sha256" text NOT NULL,
	"certificate_expires" timestamp with time zone NOT NULL,
	"profiles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"custom_entitlements" text,
	"sealed_material" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ios_resigns" ADD CONSTRAINT "ios_resigns_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ios_resigns" ADD CONSTRAINT "ios_resigns_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ios_resigns" ADD CONSTRAINT "ios_resigns_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ios_resigns" ADD CONSTRAINT "ios_resigns_result_version_id_versions_id_fk" FOREIGN KEY ("result_version_id") REFERENCES "public"."versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ios_resigns" ADD CONSTRAINT "ios_resigns_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ios_resigns_version_idx" ON "ios_resigns" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "ios_resigns_org_idx" ON "ios_resigns" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "ios_resigns_result_idx" ON "ios_resigns" USING btree ("result_version_id");