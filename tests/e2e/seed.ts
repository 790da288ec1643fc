// Seeds the browser tests' accounts (tests/e2e/accounts.ts) into the app's fresh PGlite folder, before the app starts
// (a PGlite folder is opened by one process at a time), and writes an access token for each to E2E_FIXTURES_FILE.
// Run by scripts/run-e2e.mjs with DATA_DIR and SECRET_KEY, the app's own.
import { writeFileSync } from "node:fs";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import { hashPassword } from "../../src/auth/passwords.ts";
import { createAccessToken } from "../../src/auth/tokens.ts";
import { SUBSCRIPTION_ACCOUNTS, type SeededTokens } from "./accounts.ts";

const out = process.env.E2E_FIXTURES_FILE;
if (!out || !process.env.SECRET_KEY) throw new Error("E2E_FIXTURES_FILE and SECRET_KEY must be set");
const config = loadConfig();
const handle = openDatabase({ dataDir: config.DATA_DIR });
const day = 24 * 60 * 60 * 1000;
const at = (days: number | undefined) => (days === undefined ? null : new Date(Date.now() + days * day));
try {
  await migrateToLatest(handle.db);
  const hashed_password = await hashPassword("correct-horse-battery-9");
  const secretKey = new TextEncoder().encode(process.env.SECRET_KEY);
  const tokens: Record<string, string> = {};
  for (const [name, account] of Object.entries(SUBSCRIPTION_ACCOUNTS)) {
    const user = await handle.db
      .insertInto("users")
      .values({ email: account.email, full_name: account.full_name, hashed_password })
      .returning(["id", "token_version"])
      .executeTakeFirstOrThrow();
    const s = account.subscription;
    if (s) {
      await handle.db
        .insertInto("subscriptions")
        .values({
          user_id: user.id,
          status: s.status,
          subscription_type: s.subscription_type,
          billing_interval: s.billing_interval,
          is_trial: s.is_trial,
          source: s.source,
          trial_ends_at: at(s.trialEndsInDays),
          current_period_end: at(s.periodEndsInDays),
          cancel_at_period_end: s.cancel_at_period_end ?? false,
          stripe_subscription_id: s.source === "stripe" ? `sub_seeded_${name}` : null,
          // Seeded trials are not e-mailed by the app's sweep.
          trial_reminder_sent_at: s.is_trial ? new Date() : null,
          trial_ended_notice_at: s.is_trial ? new Date() : null,
        })
        .execute();
    }
    tokens[name] = await createAccessToken(
      secretKey,
      { sub: user.id, ver: user.token_version },
      config.ACCESS_TOKEN_EXPIRE_MINUTES,
    );
  }
  writeFileSync(out, JSON.stringify(tokens satisfies Partial<SeededTokens>));
} finally {
  await handle.close();
}
