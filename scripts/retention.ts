// The privacy policy's retention (src/privacy/retention.ts), from a shell: what the daily job would do, or doing it.
//
//   npm run retention -- --dry-run            lists the notices and deletions due now, changes nothing
//   npm run retention -- --dry-run --now ISO  as at another moment (e.g. to see next month's deletions)
//   npm run retention                         applies it now (notices are queued; e-mails go with the job queue)
//
// With embedded PGlite, stop the server first: a PGlite data folder must not be opened by two processes at once.
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrator.ts";
import { PgJobQueue } from "../src/jobs/queue-pg.ts";
import { applyRetention, planRetention, type RetentionReport } from "../src/privacy/retention.ts";

const { values } = parseArgs({
  options: {
    "dry-run": { type: "boolean", default: false },
    now: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log("usage: npm run retention -- [--dry-run] [--now ISO-8601]");
  process.exit(0);
}
const now = values.now ? new Date(values.now) : new Date();
if (Number.isNaN(now.getTime())) {
  console.error("--now must be a date such as 2027-01-31 or 2027-01-31T04:00:00Z");
  process.exit(2);
}
if (values.now && !values["dry-run"]) {
  console.error("--now is for --dry-run only: the policy is applied at the real time");
  process.exit(2);
}

function print(report: RetentionReport, dry: boolean): void {
  const verb = dry ? "would" : "did";
  const day = (d: Date) => d.toISOString().slice(0, 10);
  console.log(`Retention at ${now.toISOString()} (${dry ? "dry run: nothing changed" : "applied"})`);
  console.log(`- deletion notices: ${report.notices.length}`);
  for (const n of report.notices) console.log(`    ${n.email}: deletion on ${day(n.deleteOn)}`);
  console.log(`- inactive accounts ${verb} be deleted: ${report.deletions.length}`.replace("did be", "were"));
  for (const d of report.deletions) console.log(`    ${d.email}: last login ${day(d.lastActiveAt)}`);
  console.log(`- archives past 5 years ${verb} be deleted: ${report.archivesDeleted}`.replace("did be", "were"));
  if (report.inactiveAdministrators.length > 0) {
    console.log(`- inactive administrators, kept (an operator decides): ${report.inactiveAdministrators.join(", ")}`);
  }
}

const config = loadConfig(process.env, { role: "cli" });
const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
try {
  await migrateToLatest(handle.db);
  if (values["dry-run"]) print(await planRetention(handle.db, now), true);
  else print(await applyRetention({ config, db: handle.db, jobs: new PgJobQueue(handle.db) }, now), false);
} finally {
  await handle.close();
}
