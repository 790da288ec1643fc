// `npm run suggestions:weekly [-- --week 2026-W48] [--run] [--prepare]`: the weekly suggestions run for an external
// cron.
// --prepare queues the daily preparation of the profile sources' answers instead (the schedule's 02:00 UTC job,
// docs/decisions/0025-suggestion-source-cache.md): run it daily from the same cron when the app's schedule is off.
// Enqueues the week's run on the durable job queue (the same job the in-process schedule enqueues on Mondays at 06:00
// UTC), which the server's workers then carry out: one job per subscriber, idempotent, so running it again, or on top
// of the schedule, changes nothing and sends no digest twice. With --run, this process also works the queue's
// suggestions and e-mail jobs until none is left (for deployments whose workers are stopped, or WORKER=off).
// With the embedded database (no DATABASE_URL) stop the server first: PGlite is one process's database.
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrator.ts";
import { PgJobQueue } from "../src/jobs/queue-pg.ts";
import { runJobsUntilIdle } from "../src/jobs/worker.ts";
import { openSearchIndex } from "../src/search/open-index.ts";
import type { AppDeps } from "../src/deps.ts";
import { resolveSecretKey } from "../src/auth/secret-key.ts";
import { PREPARE_RUN, suggestionJobHandlers, WEEKLY_RUN } from "../src/suggestions/jobs.ts";
import { enqueueJob } from "../src/jobs/kinds.ts";
import { emailJobHandlers } from "../src/email/jobs.ts";
import { isIsoWeek, isoWeek } from "../src/suggestions/week.ts";

const { values } = parseArgs({
  options: {
    week: { type: "string" },
    run: { type: "boolean", default: false },
    prepare: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log("usage: npm run suggestions:weekly [-- --week YYYY-Www] [--run] [--prepare]");
  process.exit(0);
}
const week = values.week ?? isoWeek(new Date());
if (!isIsoWeek(week)) {
  console.error(`--week must be an ISO week such as ${isoWeek(new Date())}`);
  process.exit(2);
}

// With --run this process works jobs that sign unsubscribe links the web processes check: a worker's rules (the same
// SECRET_KEY as theirs). Without, it only enqueues and signs nothing.
const config = loadConfig(process.env, { role: values.run ? "worker" : "cli" });
const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
try {
  await migrateToLatest(handle.db);
  const deps: AppDeps = {
    config,
    db: handle.db,
    search: await openSearchIndex(config, handle.db),
    jobs: new PgJobQueue(handle.db),
    // Nothing is signed without --run: no key is asked for (a shared database without SECRET_KEY is fine then).
    secretKey: values.run ? resolveSecretKey(config) : new Uint8Array(0),
  };
  if (values.prepare) {
    const id = await enqueueJob(deps.jobs, PREPARE_RUN, {});
    console.log(`queued the preparation of the suggestion sources' answers (job ${id})`);
  } else {
    const id = await enqueueJob(deps.jobs, WEEKLY_RUN, { week });
    console.log(`queued the weekly suggestions run for ${week} (job ${id})`);
  }
  if (values.run) {
    const started = performance.now();
    const ran = await runJobsUntilIdle(deps, { ...suggestionJobHandlers(), ...emailJobHandlers() });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (values.prepare) console.log(`ran ${ran} jobs in ${seconds} s`);
    else {
      const batches = await deps.db
        .selectFrom("weekly_suggestions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("week", "=", week)
        .executeTakeFirstOrThrow();
      console.log(`ran ${ran} jobs in ${seconds} s; ${Number(batches.n)} users have suggestions for ${week}`);
    }
  }
} finally {
  await handle.close();
}
