import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { listPubmedFiles, parseMd5File, syncPubmed } from "../../search/pubmed/sync.ts";
import { parsePubmedFile } from "../../search/pubmed/parser.ts";
import { PUBMED_SYNC_JOB } from "../../src/pubmed/sync-jobs.ts";
import { applicationSchedules } from "../../src/job-registry.ts";

// `npm run pubmed:sync` against a local HTTP server that serves NLM-style update files made from the real sample, each
// with its .md5, behind an HTML directory listing: new files only, a bad checksum, a crash between two files, a
// DeleteCitation, the schedule.

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
const FILE_A = readFileSync(join(SAMPLE, "pubmedxml_piratevax_pubmed_result.xml.gz"));
const FILE_B = readFileSync(join(SAMPLE, "pubmedxml_seedtk_ncbi-utils_pubmed.xml.gz"));
const md5 = (b: Uint8Array) => createHash("md5").update(b).digest("hex");

/** A served directory: name → bytes; `corrupt` names are served with flipped bytes `corrupt[name]` more times. */
function startServer(files: Map<string, Uint8Array>, corrupt: Map<string, number>) {
  const hits: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const name = new URL(req.url).pathname.replace(/^\/updatefiles\//, "");
      hits.push(name);
      if (name === "") {
        const links = [...files.keys()]
          .flatMap((n) => [`<a href="${n}">${n}</a>`, `<a href="${n}.md5">${n}.md5</a>`])
          .join("\n");
        return new Response(
          `<html><body><pre><a href="../">Parent Directory</a>\n<a href="README.txt">README.txt</a>\n${links}</pre></body></html>`,
          { headers: { "content-type": "text/html" } },
        );
      }
      if (name.endsWith(".md5")) {
        const body = files.get(name.slice(0, -4));
        return body
          ? new Response(`MD5(${name.slice(0, -4)})= ${md5(body)}\n`)
          : new Response("not found", { status: 404 });
      }
      const body = files.get(name);
      if (!body) return new Response("not found", { status: 404 });
      const left = corrupt.get(name) ?? 0;
      if (left > 0) {
        corrupt.set(name, left - 1);
        const bad = Buffer.from(body);
        bad[bad.length >> 1] = bad[bad.length >> 1]! ^ 0xff;
        return new Response(bad);
      }
      return new Response(Buffer.from(body));
    },
  });
  return { url: `http://127.0.0.1:${server.port}/updatefiles/`, hits, stop: () => server.stop(true) };
}

for (const backend of APP_BACKENDS) {
  describe(`PubMed sync (${backend})`, () => {
    let t: TestApp;
    const files = new Map<string, Uint8Array>();
    const corrupt = new Map<string, number>();
    let served: ReturnType<typeof startServer>;
    let pmidsA: number[];

    beforeAll(async () => {
      t = await createTestApp(backend);
      served = startServer(files, corrupt);
      // The PMIDs of file A, read with the parser the ingest uses (a scratch database to ingest it into cost a PGlite
      // start and its migrations).
      const pmids = new Set<number>();
      for await (const e of parsePubmedFile(join(SAMPLE, "pubmedxml_piratevax_pubmed_result.xml.gz")))
        if (e.type === "article") pmids.add(e.article.pmid);
      pmidsA = [...pmids].sort((x, y) => x - y);
    });
    afterAll(async () => {
      served.stop();
      await t.close();
    });

    test("the listing gives the update files in order; .md5 files are read in NLM's and md5sum's forms", async () => {
      files.set("pubmed26n0002.xml.gz", FILE_B);
      files.set("pubmed26n0001.xml.gz", FILE_A);
      expect(await listPubmedFiles(served.url)).toEqual(["pubmed26n0001.xml.gz", "pubmed26n0002.xml.gz"]);
      expect(parseMd5File("MD5(pubmed26n0001.xml.gz)= 0123456789ABCDEF0123456789abcdef\n")).toBe(
        "0123456789abcdef0123456789abcdef",
      );
      expect(parseMd5File("0123456789abcdef0123456789abcdef  pubmed26n0001.xml.gz")).toBe(
        "0123456789abcdef0123456789abcdef",
      );
      expect(parseMd5File("nothing here")).toBeNull();
    });

    test("new files are ingested in order and recorded; a rerun downloads and ingests nothing", async () => {
      const first = await syncPubmed(t.deps, served.url);
      expect(first.files.map((f) => [f.name, f.status])).toEqual([
        ["pubmed26n0001.xml.gz", "ingested"],
        ["pubmed26n0002.xml.gz", "ingested"],
      ]);
      expect(first.files[0]!.records).toBe(pmidsA.length);
      const rows = await t.db.selectFrom("pubmed_sync_files").selectAll().orderBy("name").execute();
      expect(rows.map((r) => [r.name, r.status, r.md5])).toEqual([
        ["pubmed26n0001.xml.gz", "ingested", md5(FILE_A)],
        ["pubmed26n0002.xml.gz", "ingested", md5(FILE_B)],
      ]);
      expect((await t.deps.search.search("vaccine")).total).toBeGreaterThan(0);

      served.hits.length = 0;
      const again = await syncPubmed(t.deps, served.url);
      expect(again.files).toEqual([]);
      expect(again.alreadyIngested).toBe(2);
      expect(served.hits).toEqual([""]); // only the listing
    });

    test("a corrupt download is retried; one that stays corrupt is never ingested, and later files wait for it", async () => {
      const deletion = gzipSync(
        Buffer.from(
          `<?xml version="1.0"?>\n<PubmedArticleSet><DeleteCitation><PMID Version="1">${pmidsA[0]}</PMID></DeleteCitation></PubmedArticleSet>\n`,
        ),
      );
      files.set("pubmed26n0003.xml.gz", deletion);
      files.set("pubmed26n0004.xml.gz", FILE_A);
      corrupt.set("pubmed26n0003.xml.gz", 99);
      const logs: string[] = [];
      const run = await syncPubmed(t.deps, served.url, { onLog: (l) => logs.push(l) });
      expect(run.files.map((f) => [f.name, f.status])).toEqual([["pubmed26n0003.xml.gz", "failed"]]);
      expect(run.files[0]!.error).toContain("checksum mismatch");
      expect(logs.filter((l) => l.includes("download attempt"))).toHaveLength(3);
      // Nothing of it was applied: the record it deletes is still there.
      expect(await t.db.selectFrom("articles").select("pmid").where("pmid", "=", pmidsA[0]!).execute()).toHaveLength(1);

      // Corrupt once only: the retry within the run succeeds, the DeleteCitation applies, then the next file.
      corrupt.set("pubmed26n0003.xml.gz", 1);
      const retried = await syncPubmed(t.deps, served.url);
      expect(retried.files.map((f) => [f.name, f.status])).toEqual([
        ["pubmed26n0003.xml.gz", "ingested"],
        ["pubmed26n0004.xml.gz", "ingested"],
      ]);
      expect(retried.files[0]!.deleted).toBe(1);
      // File 4 re-adds file 1's records: the deleted PMID is back, as NLM's order says.
      expect(await t.db.selectFrom("articles").select("pmid").where("pmid", "=", pmidsA[0]!).execute()).toHaveLength(1);
    });

    test("a DeleteCitation removes the record from the articles and the index", async () => {
      const target = pmidsA[1]!;
      const title = (
        await t.db.selectFrom("articles").select("title").where("pmid", "=", target).executeTakeFirstOrThrow()
      ).title!;
      const before = await t.deps.search.search(`"${title.split(" ").slice(0, 4).join(" ")}"`, { limit: 50 });
      expect(before.hits.map((h) => h.pmid)).toContain(target);
      files.set(
        "pubmed26n0005.xml.gz",
        gzipSync(
          Buffer.from(
            `<PubmedArticleSet><DeleteCitation><PMID Version="1">${target}</PMID></DeleteCitation></PubmedArticleSet>`,
          ),
        ),
      );
      const run = await syncPubmed(t.deps, served.url);
      expect(run.files.map((f) => [f.name, f.status, f.deleted])).toEqual([["pubmed26n0005.xml.gz", "ingested", 1]]);
      expect(await t.db.selectFrom("articles").select("pmid").where("pmid", "=", target).execute()).toEqual([]);
      const after = await t.deps.search.search(`"${title.split(" ").slice(0, 4).join(" ")}"`, { limit: 50 });
      expect(after.hits.map((h) => h.pmid)).not.toContain(target);
    });

    test("a run that stops between two files resumes with the next one, never ingesting a file twice", async () => {
      files.set("pubmed26n0006.xml.gz", FILE_B);
      files.set("pubmed26n0007.xml.gz", FILE_A);
      const ingested: string[] = [];
      // The ingest of the second file dies (as a killed process would, before recording it).
      const crashing: typeof ingestFiles = async (deps, paths, o) => {
        const name = paths[0]!.split("/").pop()!;
        if (name === "pubmed26n0007.xml.gz") throw new Error("killed");
        ingested.push(name);
        return ingestFiles(deps, paths, o);
      };
      const run = await syncPubmed(t.deps, served.url, { ingest: crashing });
      expect(run.files.map((f) => [f.name, f.status])).toEqual([
        ["pubmed26n0006.xml.gz", "ingested"],
        ["pubmed26n0007.xml.gz", "failed"],
      ]);
      const counting: typeof ingestFiles = async (deps, paths, o) => {
        ingested.push(paths[0]!.split("/").pop()!);
        return ingestFiles(deps, paths, o);
      };
      const resumed = await syncPubmed(t.deps, served.url, { ingest: counting });
      expect(resumed.files.map((f) => [f.name, f.status])).toEqual([["pubmed26n0007.xml.gz", "ingested"]]);
      expect(ingested).toEqual(["pubmed26n0006.xml.gz", "pubmed26n0007.xml.gz"]);
    });

    test("PUBMED_SYNC=daily schedules the sync job once a day; off by default", async () => {
      expect(applicationSchedules(t.deps).some((s) => s.name === "pubmed.sync")).toBe(false);
      const daily = applicationSchedules({ ...t.deps, config: { ...t.deps.config, PUBMED_SYNC: "daily" } });
      const schedule = daily.find((s) => s.name === "pubmed.sync")!;
      expect(schedule.cron).toBe("0 5 * * *");
      await schedule.run({ ...t.deps, config: { ...t.deps.config, PUBMED_SYNC: "daily" } }, new Date());
      expect(await t.db.selectFrom("jobs").select("kind").where("kind", "=", PUBMED_SYNC_JOB).execute()).toHaveLength(
        1,
      );
    });
  });
}
