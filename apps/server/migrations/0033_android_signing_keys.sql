CREATE TABLE "android_signing_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "android_signing_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"application_id" bigint,
	"origin" text NOT NULL,
	"sealed" text NOT NULL,
	"store_type" text DEFAULT '' NOT NULL,
	"key_alias" text DEFAULT '' NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"certificate_subject" text NOT NULL,
	"certificate_issuer" text NOT NULL,
	"certificate_sha256" text NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"updated_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "android_signing_keys" ADD CONSTRAINT "android_signing_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "android_signing_keys" ADD CONSTRAINT "android_signing_keys_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "android_signing_keys" ADD CONSTRAINT "android_signing_keys_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "android_signing_keys_app_origin_key" ON "android_signing_keys" USING btree ("application_id","origin");--> statement-breakpoint
CREATE UNIQUE INDEX "android_signing_keys_org_key" ON "android_signing_keys" USING btree ("organization_id") WHERE "android_signing_keys"."application_id" is null;--> statement-breakpoint
CREATE INDEX "android_signing_keys_org_idx" ON "android_signing_keys" USING btree ("organization_id");