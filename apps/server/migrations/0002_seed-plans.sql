-- Plans offered by default. Limits: 0 means unlimited; space in MB.
INSERT INTO "plans" ("code", "title", "price_cents", "currency", "space_limit_mb", "build_limit", "projects_limit", "user_limit", "is_default", "sort_order") VALUES
  ('free', 'Free', 0, 'usd', 2048, 100, 3, 5, true, 1),
  ('team', 'Team', 2900, 'usd', 51200, 2000, 25, 25, false, 2),
  ('business', 'Business', 9900, 'usd', 512000, 0, 100, 100, false, 3),
  ('unlimited', 'Unlimited', 0, 'usd', 0, 0, 0, 0, false, 4)
ON CONFLICT ("code") DO NOTHING;
