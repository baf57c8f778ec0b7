CREATE TABLE "install_reservations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "install_reservations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"distribution_id" bigint NOT NULL,
	"version_id" bigint NOT NULL,
	"client_key" text NOT NULL,
	"holds_slot" boolean DEFAULT false NOT NULL,
	"install_counted_at" timestamp with time zone,
	"download_counted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "install_reservations" ADD CONSTRAINT "install_reservations_distribution_id_distributions_id_fk" FOREIGN KEY ("distribution_id") REFERENCES "public"."distributions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "install_reservations" ADD CONSTRAINT "install_reservations_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "install_reservations_client_key" ON "install_reservations" USING btree ("version_id","distribution_id","client_key");--> statement-breakpoint
CREATE INDEX "install_reservations_link_idx" ON "install_reservations" USING btree ("distribution_id");--> statement-breakpoint
CREATE INDEX "install_reservations_created_idx" ON "install_reservations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "distributions_version_idx" ON "distributions" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "upload_tasks_version_idx" ON "upload_tasks" USING btree ("version_id");