ALTER TABLE "tus_upload_parts" ALTER COLUMN "key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tus_upload_parts" ADD COLUMN "detail" text;--> statement-breakpoint
ALTER TABLE "tus_uploads" ADD COLUMN "target_key" text;--> statement-breakpoint
ALTER TABLE "tus_uploads" ADD COLUMN "assembly_handle" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tus_uploads" ADD COLUMN "writer" text;--> statement-breakpoint
ALTER TABLE "tus_uploads" ADD COLUMN "writer_until" timestamp with time zone;