// The PubMed sync of a day's update file (issue 12): a file of 30,000 records made from the sample
// (scripts/bench/generate-corpus.ts, about the size of an NLM daily update file) served with its .md5 by a local HTTP
// server behind a directory listing, synced into a fresh PostgreSQL database by `bun scripts/pubmed-sync.ts` (as
// `npm run pubmed:sync` runs it), against `bun scripts/ingest-pubmed.ts` of the same file into another fresh database.
// Reports records per second and each process's peak RSS (/usr/bin/time -v).
//
// Usage: npm run bench -- sync [--records 30000]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "./bench-accounts.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const { values } = parseArgs({ options: { records: { type: "string", default: "30000" } } });
const RECORDS = Number(values.records);
const file = join(ROOT, "bench-data", `pubmed-${RECORDS}.xml.gz`);
if (!existsSync(file)) {
  console.error(`generating ${file}…`);
  const gen = spawnSync(process.execPath, [join(import.meta.dir, "generate-corpus.ts"), String(RECORDS)], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (gen.status !== 0) throw new Error("generate-corpus failed");
}
const bytes = readFileSync(file);
const name = "pubmed26n1500.xml.gz";
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/updatefiles/")
      return new Response(
        `<html><body><a href="${name}">${name}</a> <a href="${name}.md5">${name}.md5</a></body></html>`,
        { headers: { "content-type": "text/html" } },
      );
    if (path === `/updatefiles/${name}`) return new Response(bytes);
    if (path === `/updatefiles/${name}.md5`)
      return new Response(`MD5(${name})= ${createHash("md5").update(bytes).digest("hex")}\n`);
    return new Response("not found", { status: 404 });
  },
});

/** Runs a script under /usr/bin/time -v: its stdout's last line, wall seconds and peak RSS (MB). */
function timed(args: string[], env: Record<string, string>) {
  const report = join(tmpdir(), `bench-sync-time-${process.pid}.txt`);
  const out = spawnSync("/usr/bin/time", ["-v", "-o", report, process.execPath, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (out.status !== 0)
    throw new Error(
      `${args.join(" ")} failed (status ${out.status}, signal ${out.signal}, error ${out.error}): ${out.stderr.slice(-300)}`,
    );
  const text = readFileSync(report, "utf8");
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1] ?? 0) / 1024;
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(text);
  const seconds = wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : NaN;
  return { line: out.stdout.trim().split("\n").at(-1) ?? "", seconds, rss };
}

try {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const a = await createDatabase(adminUrl);
  const b = await createDatabase(adminUrl);
  try {
    const common = { LOG_LEVEL: "warn", SEED_SAMPLE: "false" };
    // The sync is spawned asynchronously: this process's HTTP server must keep answering while it downloads.
    const syncStart = performance.now();
    const report = join(tmpdir(), `bench-sync-time-sync-${process.pid}.txt`);
    // time writes its report to a file: under Bun the pipes are non-blocking, and a report written to them is cut.
    const proc = Bun.spawn(["/usr/bin/time", "-v", "-o", report, process.execPath, "scripts/pubmed-sync.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...common,
        DATABASE_URL: a.url,
        PUBMED_UPDATES_URL: `http://127.0.0.1:${server.port}/updatefiles/`,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    if ((await proc.exited) !== 0) throw new Error(`sync failed: ${stderr.slice(-2000)}`);
    const syncSeconds = (performance.now() - syncStart) / 1000;
    const syncRss =
      Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(report, "utf8"))?.[1] ?? 0) / 1024;
    const ingest = timed(["scripts/ingest-pubmed.ts", file], { ...common, DATABASE_URL: b.url });
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; file: ${RECORDS} records, ${(bytes.length / 2 ** 20).toFixed(1)} MB gzipped`,
    );
    console.log(
      `pubmed:sync (list, download, MD5, ingest, record): ${stdout.trim()} — ${syncSeconds.toFixed(1)} s wall, ${(RECORDS / syncSeconds).toFixed(0)} records/s, peak RSS ${syncRss.toFixed(0)} MB`,
    );
    console.log(
      `ingest of the same file: ${ingest.line} — ${ingest.seconds.toFixed(1)} s wall, ${(RECORDS / ingest.seconds).toFixed(0)} records/s, peak RSS ${ingest.rss.toFixed(0)} MB`,
    );
  } finally {
    await a.drop();
    await b.drop();
  }
} finally {
  server.stop(true);
}
