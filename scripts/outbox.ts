// Prints the e-mail outbox of the configured database (DATABASE_URL, else PGlite in DATA_DIR), newest first.
// Without SMTP_URL this is where the application's e-mails go, e.g. password reset links during development.
//
//   bun scripts/outbox.ts [--limit N] [--to ADDRESS] [--html]
//
// With embedded PGlite, stop the server first: a PGlite data folder must not be opened by two processes at once
// (the server also logs each stored message, with its text, at LOG_LEVEL=info). The script checks for a running
// server (src/db/embedded-lock.ts) and says so instead of failing with PGlite's bare "Aborted()".
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { embeddedHolder, embeddedInUseMessage, isEmbeddedAbort } from "../src/db/embedded-lock.ts";

const { values } = parseArgs({
  options: {
    limit: { type: "string", default: "20" },
    to: { type: "string" },
    html: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log("usage: bun scripts/outbox.ts [--limit N] [--to ADDRESS] [--html]");
  process.exit(0);
}

const limit = Number(values.limit);
if (!Number.isInteger(limit) || limit < 1) {
  console.error("--limit must be a positive integer");
  process.exit(2);
}

const config = loadConfig(process.env, { role: "cli" });
const embedded = !config.DATABASE_URL;
const holder = embedded ? embeddedHolder(config.DATA_DIR) : null;
if (holder !== null) {
  console.error(`cannot read the outbox: ${embeddedInUseMessage(config.DATA_DIR, holder)}`);
  process.exit(1);
}
const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 1 });
try {
  let query = handle.db.selectFrom("email_outbox").selectAll().orderBy("created_at", "desc").limit(limit);
  if (values.to) query = query.where("to", "=", values.to.trim().toLowerCase());
  const rows = await query.execute();
  if (rows.length === 0) console.log("The outbox is empty.");
  for (const row of rows.reverse()) {
    console.log("─".repeat(72));
    console.log(`${new Date(row.created_at).toISOString()}  ${row.status.toUpperCase()}  ${row.id}`);
    console.log(`To:      ${row.to}`);
    console.log(`Subject: ${row.subject}`);
    if (row.sent_at) console.log(`Sent:    ${new Date(row.sent_at).toISOString()}`);
    if (row.error) console.log(`Error:   ${row.error}`);
    const body = values.html ? row.html : row.text;
    console.log("");
    console.log(body ?? "(body not kept: the message was delivered)");
  }
} catch (err) {
  if (embedded && isEmbeddedAbort(err)) {
    // Another process has the folder open without having recorded it (an older server, a test run).
    console.error(`cannot read the outbox: ${embeddedInUseMessage(config.DATA_DIR, null)}`);
  } else {
    // The usual cause: a database that has not been migrated yet.
    console.error(
      `cannot read the outbox: ${err instanceof Error ? err.message : String(err)} (run \`npm run migrate\` first?)`,
    );
  }
  process.exitCode = 1;
} finally {
  await handle.close();
}
