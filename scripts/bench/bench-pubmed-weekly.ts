// The PubMed part of the weekly suggestions run with PubMed on demand on (issue 19): U subscribers with two interests
// each, every one's New This Week step (src/suggestions/pubmed-new.ts fetchNewThisWeek) run by L loops, as the weekly
// run's worker loops would, against the E-utilities stand-in in its own process at NCBI's rate (3 requests a second, or
// 10 with --rate 10, which gives the client an API key), with --latency-ms added to every answer.
//
//   npm run bench -- pubmed-weekly [--users 10000] [--rate 3] [--loops 2] [--latency-ms 150] [--database-url URL]
//
// Interests: two MeSH headings per user from the stand-in's records, chosen as bench-suggestions.ts chooses them
// (user i: headings[7i mod n] and headings[13i + 3 mod n]), so that users share interests the way a lab's members
// share fields. The week is the one that begins 2013-12-28 (the PubMedQA records of 2014 carry an Entrez date of
// 2014-01-01 in the stand-in), so some interests find new records and efetch runs too. The local index holds the
// sample (the stand-in's other records), on a fresh PostgreSQL database (default: BENCH_DATABASE_URL's server, or
// postgres://postgres@127.0.0.1:5432/postgres), dropped at the end.
//
// Prints: the PubMed part's wall time, esearches and efetches sent, esearches the shared cache saved (terms asked by
// users minus esearches sent), records fetched.

import { parseArgs } from "node:util";
import { join } from "node:path";
import { sql } from "kysely";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import type { AppDeps } from "../../src/deps.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { eutilsClientFor } from "../../src/pubmed/client.ts";
import { fetchNewThisWeek, type WeeklyPubmedClient } from "../../src/suggestions/pubmed-new.ts";
import type { Profile } from "../../src/suggestions/profile.ts";
import { isoWeek } from "../../src/suggestions/week.ts";
import { loadStandInRecords } from "../../tests/support/pubmed-records.ts";
import { spawnEutilsStandIn } from "../../tests/support/eutils-stand-in.ts";

const ROOT = join(import.meta.dir, "..", "..");
const { values } = parseArgs({
  options: {
    users: { type: "string", default: "10000" },
    rate: { type: "string", default: "3" },
    loops: { type: "string", default: "2" },
    "latency-ms": { type: "string", default: "150" },
    "database-url": { type: "string" },
  },
});
const USERS = Number(values.users);
const LOOPS = Math.max(1, Number(values.loops));
const API_KEY = Number(values.rate) > 3 ? "bench-api-key" : undefined;
const NOW = new Date("2014-01-03T06:00:00Z");

const standIn = await spawnEutilsStandIn(Number(values["latency-ms"]));
const standInUrl = standIn.url;

const server =
  values["database-url"] ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `lr_bench_pubmed_weekly_${Date.now()}`;
const admin = openDatabase({ databaseUrl: server, dataDir: "", poolSize: 1 });
await sql.raw(`CREATE DATABASE ${name}`).execute(admin.db);
const databaseUrl = server.replace(/\/[^/]*$/, `/${name}`);
const handle = openDatabase({ databaseUrl, dataDir: "", poolSize: 10 });
try {
  await migrateToLatest(handle.db);
  const db = handle.db;
  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    DATABASE_URL: databaseUrl,
    PUBMED_ON_DEMAND: "on",
    PUBMED_EUTILS_URL: standInUrl,
    // The whole run's step for one user may wait behind the other loops' requests at the gate.
    PUBMED_FETCH_BUDGET_MS: "60000",
    ...(API_KEY ? { NCBI_API_KEY: API_KEY } : {}),
  });
  const deps: AppDeps = {
    config,
    db,
    search: new PostgresSearchIndex(db),
    jobs: new PgJobQueue(db),
    secretKey: new Uint8Array(32),
  };
  await ingestFiles(deps, [join(ROOT, "sample", "pubmed", "merged-pubmedarticleset.xml.gz")]);

  const headings = [...new Set(loadStandInRecords().flatMap((r) => r.article.mesh_terms))].sort();
  const stamp = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < USERS; i += 1000) {
    const part = Array.from({ length: Math.min(1000, USERS - i) }, (_, k) => i + k);
    const rows = await db
      .insertInto("users")
      .values(
        part.map((n) => ({ email: `w${n}-${stamp}@bench.example`, full_name: `Bench ${n}`, hashed_password: "x" })),
      )
      .returning("id")
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  const interestsOf = (i: number) => [headings[(i * 7) % headings.length]!, headings[(i * 13 + 3) % headings.length]!];
  const profileOf = (i: number): Profile =>
    ({
      sources: interestsOf(i).map((text) => ({ kind: "interest" as const, label: text, text, weight: 1 })),
      likedPmids: [],
    }) as unknown as Profile;

  // Counts what the client sends (the stand-in is another process).
  const real = eutilsClientFor(config, db);
  const sent = { esearch: 0, efetch: 0 };
  const client: WeeklyPubmedClient = {
    esearch: (p, s) => {
      sent.esearch++;
      return real.esearch(p, s);
    },
    efetchXml: (r, s) => {
      sent.efetch++;
      return real.efetchXml(r, s);
    },
  };
  let next = 0;
  let termsAsked = 0;
  let fetched = 0;
  const outcomes: Record<string, number> = {};
  const week = isoWeek(NOW);
  const t0 = performance.now();
  let lastReport = t0;
  const loop = async () => {
    for (let i = next++; i < USERS; i = next++) {
      const r = await fetchNewThisWeek(deps, client, profileOf(i), { userId: ids[i]!, week, now: NOW, log: () => {} });
      termsAsked += r.terms;
      fetched += r.fetched;
      outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
      if (performance.now() - lastReport > 30_000) {
        lastReport = performance.now();
        console.log(
          `  ${i + 1} users, ${sent.esearch} esearches, ${sent.efetch} efetches, ${((lastReport - t0) / 1000).toFixed(0)} s`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, loop));
  const seconds = (performance.now() - t0) / 1000;
  const distinct = new Set(Array.from({ length: USERS }, (_, i) => interestsOf(i).map((t) => t.toLowerCase())).flat())
    .size;
  console.log(
    `weekly PubMed part, ${USERS} users (${distinct} distinct interests of ${termsAsked} asked), ${LOOPS} loops, ` +
      `${API_KEY ? 10 : 3} requests/s, stand-in +${values["latency-ms"]} ms: ${seconds.toFixed(0)} s (${(seconds / 60).toFixed(1)} min); ` +
      `${sent.esearch} esearches and ${sent.efetch} efetches sent, ${termsAsked - sent.esearch} esearches saved by the shared cache ` +
      `(${(100 * (1 - sent.esearch / Math.max(1, termsAsked))).toFixed(1)} %); ${fetched} records fetched; outcomes ${JSON.stringify(outcomes)}`,
  );
} finally {
  await handle.close();
  await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(admin.db);
  await admin.close();
  standIn.stop();
}
