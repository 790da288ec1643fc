// Operator commands for subscriptions, on the configured database (DATABASE_URL, else PGlite in DATA_DIR):
//
//   npm run subscription -- grant EMAIL PLAN [--interval annual|monthly]   give a plan (plus, pro, max) without payment
//   npm run subscription -- end EMAIL                                      end the plan now (a Stripe subscription is
//                                                                          canceled at Stripe when STRIPE_SECRET_KEY is
// set)   npm run subscription -- show EMAIL                                     print the subscription
//   npm run subscription -- expire-trials                                  the trial sweep, for an external cron: ended
//                                                                          trials become trial_expired, the trial
// e-mails                                                                          due are queued once each and sent
// now
//
// A grant or end is one database write: every server process reads the subscription on each request, so it holds
// from the next request on. With embedded PGlite, stop the server first: a PGlite data folder must not be opened
// by two processes at once.
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrator.ts";
import { PgJobQueue } from "../src/jobs/queue-pg.ts";
import { runJobsUntilIdle } from "../src/jobs/worker.ts";
import { PostgresSearchIndex } from "../search/postgres-index.ts";
import type { AppDeps } from "../src/deps.ts";
import { OperatorError, endPlan, grantPlan, showPlan } from "../src/subscriptions/operator.ts";
import { TRIAL_EMAIL_JOB, subscriptionJobHandlers, sweepTrials } from "../src/subscriptions/trials.ts";
import { INTERVALS, PLANS, type Interval, type Plan } from "../src/subscriptions/stripe.ts";

const USAGE = `usage:
  npm run subscription -- grant EMAIL PLAN [--interval annual|monthly]   PLAN: ${PLANS.join(", ")}
  npm run subscription -- end EMAIL
  npm run subscription -- show EMAIL
  npm run subscription -- expire-trials`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { interval: { type: "string", default: "annual" }, help: { type: "boolean", short: "h", default: false } },
});

function usage(message?: string): never {
  if (message) console.error(message);
  console.error(USAGE);
  process.exit(2);
}

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const [command, ...rest] = positionals;
const want = (n: number) => {
  if (rest.length !== n) usage(`${command} takes ${n} argument${n === 1 ? "" : "s"}`);
};
if (!command) usage();

const config = loadConfig(process.env, { role: "cli" });
const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

try {
  await migrateToLatest(handle.db);
  const deps: AppDeps = {
    config,
    db: handle.db,
    search: new PostgresSearchIndex(handle.db),
    jobs: new PgJobQueue(handle.db),
    secretKey: new Uint8Array(32),
  };
  switch (command) {
    case "grant": {
      want(2);
      const [email, plan] = rest as [string, string];
      if (!(PLANS as readonly string[]).includes(plan)) usage(`PLAN must be one of ${PLANS.join(", ")}`);
      if (!(INTERVALS as readonly string[]).includes(values.interval!))
        usage(`--interval must be one of ${INTERVALS.join(", ")}`);
      print(await grantPlan(deps, email, plan as Plan, values.interval as Interval));
      break;
    }
    case "end": {
      want(1);
      const { subscription, warning } = await endPlan(deps, rest[0]!);
      print(subscription);
      if (warning) console.error(`warning: ${warning}`);
      break;
    }
    case "show": {
      want(1);
      print(await showPlan(deps, rest[0]!));
      break;
    }
    case "expire-trials": {
      want(0);
      const swept = await sweepTrials(deps);
      // Send the e-mails now rather than leave them to a worker that may not run (WORKER=off everywhere).
      const trialEmail = subscriptionJobHandlers()[TRIAL_EMAIL_JOB]!;
      const sent = await runJobsUntilIdle(deps, { [TRIAL_EMAIL_JOB]: trialEmail });
      print({ ...swept, emailJobsRun: sent });
      break;
    }
    default:
      usage(`unknown command: ${command}`);
  }
} catch (err) {
  if (err instanceof OperatorError) {
    console.error(err.message);
    process.exitCode = 1;
  } else {
    throw err;
  }
} finally {
  await handle.close();
}
