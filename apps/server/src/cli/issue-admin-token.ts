/**
 * Bootstrap for a self-hosted instance: creates (or finds) an active user and prints a new API
 * key for it. Run with the server stopped when the embedded database is used:
 *   npm run admin:token -w apps/server -- admin@example.com
 * List the address in ADMIN_EMAILS to make the user an instance administrator.
 */
import { loadConfig } from "../config.ts";
import { TokenService } from "../modules/users/token.service.ts";
import { findUserByEmail, insertUser } from "../modules/users/users.repo.ts";
import { openDatabase } from "../platform/db/client.ts";
import { applyMigrations } from "../platform/db/migrate.ts";

const email = process.argv[2]?.trim().toLowerCase();
if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) {
  process.stderr.write("usage: issue-admin-token EMAIL\n");
  process.exit(2);
}
const config = loadConfig();
const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 1 });
try {
  await applyMigrations(handle);
  const user =
    (await findUserByEmail(handle.db, email)) ?? (await insertUser(handle.db, { email, isActive: true }));
  process.stdout.write(`${await new TokenService({ db: handle.db }).issueApiKey(user.id)}\n`);
} finally {
  await handle.close();
}
