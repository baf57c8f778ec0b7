ALTER TABLE "organizations" ADD COLUMN "pending_upload_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "pending_uploads" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Uploads already waiting for confirmation hold their space from now on.
UPDATE "organizations" o SET "pending_upload_bytes" = p.bytes, "pending_uploads" = p.uploads
FROM (SELECT "organization_id", sum("file_size")::bigint AS bytes, count(*)::int AS uploads
      FROM "preloads" GROUP BY "organization_id") p
WHERE p."organization_id" = o."id";
