CREATE TABLE "upload_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" bigint,
	"address" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "upload_slots_user_idx" ON "upload_slots" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE INDEX "upload_slots_address_idx" ON "upload_slots" USING btree ("address","expires_at");