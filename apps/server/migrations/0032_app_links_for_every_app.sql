-- Every app has its permanent install link from its creation on, so pages that read it never
-- write. Apps made before then get theirs here (122 random bits, URL-safe).
INSERT INTO "distributions" ("organization_id", "application_id", "key", "access")
SELECT a."organization_id", a."id", replace(gen_random_uuid()::text, '-', ''), 'public'
FROM "applications" a
WHERE NOT EXISTS (
  SELECT 1 FROM "distributions" d WHERE d."application_id" = a."id" AND d."version_id" IS NULL
);
