CREATE TABLE "tus_upload_parts" (
	"upload_id" text NOT NULL,
	"start_offset" bigint NOT NULL,
	"size" bigint NOT NULL,
	"key" text NOT NULL,
	CONSTRAINT "tus_upload_parts_pkey" PRIMARY KEY("upload_id","start_offset")
);
--> statement-breakpoint
CREATE TABLE "tus_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"file_name" text NOT NULL,
	"metadata" text DEFAULT '' NOT NULL,
	"upload_length" bigint NOT NULL,
	"upload_offset" bigint DEFAULT 0 NOT NULL,
	"storage_prefix" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tus_upload_parts" ADD CONSTRAINT "tus_upload_parts_upload_id_tus_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."tus_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tus_uploads" ADD CONSTRAINT "tus_uploads_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tus_uploads" ADD CONSTRAINT "tus_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tus_upload_parts_key_key" ON "tus_upload_parts" USING btree ("key");--> statement-breakpoint
CREATE INDEX "tus_uploads_owner_idx" ON "tus_uploads" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "tus_uploads_expires_idx" ON "tus_uploads" USING btree ("expires_at");