CREATE TABLE "storage_locations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "storage_locations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"settings" jsonb NOT NULL,
	"sealed_secret" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refusal_notified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "storage_moves" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "storage_moves_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" bigint NOT NULL,
	"target_location_id" bigint,
	"state" text DEFAULT 'queued' NOT NULL,
	"total_files" integer DEFAULT 0 NOT NULL,
	"moved_files" integer DEFAULT 0 NOT NULL,
	"total_bytes" bigint DEFAULT 0 NOT NULL,
	"moved_bytes" bigint DEFAULT 0 NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"started_by" bigint,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "storage_locations" ADD CONSTRAINT "storage_locations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_locations" ADD CONSTRAINT "storage_locations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_moves" ADD CONSTRAINT "storage_moves_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_moves" ADD CONSTRAINT "storage_moves_target_location_id_storage_locations_id_fk" FOREIGN KEY ("target_location_id") REFERENCES "public"."storage_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_moves" ADD CONSTRAINT "storage_moves_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "storage_locations_org_idx" ON "storage_locations" USING btree ("organization_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "storage_locations_active_key" ON "storage_locations" USING btree ("organization_id") WHERE "storage_locations"."active";--> statement-breakpoint
CREATE INDEX "storage_moves_org_idx" ON "storage_moves" USING btree ("organization_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "storage_moves_running_key" ON "storage_moves" USING btree ("organization_id") WHERE "storage_moves"."state" in ('queued', 'running');