import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseHandle } from "../src/db/database.ts";
import { LAYER_BACKENDS, createTestDatabase } from "../tests/support/database.ts";
import { ingestFiles, type IngestProgress } from "./ingest.ts";
import { PostgresSearchIndex } from "./postgres-index.ts";

const ROOT = join(import.meta.dir, "..");
const SAMPLE = join(ROOT, "sample", "pubmed");
const FIXTURES = join(import.meta.dir, "pubmed", "fixtures");
/** NLM's 2014 MedlineCitationSet sample: 161 real records and a DeleteCitation of PMIDs not among them. */
const MEDSAMP = join(SAMPLE, "medlinecitationset_nlm_medsamp2014.xml.gz");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ingest-test-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A MedlineCitationSet document with these records (XML fragments). */
async function writeXml(name: string, body: string): Promise<string> {
  const file = join(dir, name);
  await Bun.write(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>\n<MedlineCitationSet>\n${body}\n</MedlineCitationSet>\n`,
  );
  return file;
}

for (const backend of LAYER_BACKENDS) {
  describe(`ingestFiles on ${backend}`, () => {
    let handle: DatabaseHandle;
    let search: PostgresSearchIndex;

    beforeAll(async () => {
      handle = await createTestDatabase(backend);
      search = new PostgresSearchIndex(handle.db);
    });
    afterAll(async () => {
      await handle.close();
    });

    async function articleCount(): Promise<number> {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM articles`.execute(handle.db);
      return rows[0]!.n;
    }

    async function hits(query: string): Promise<number[]> {
      return (await search.search(query, { limit: 20 })).hits.map((h) => h.pmid);
    }

    test("a real file: every record stored and searchable, progress reported", async () => {
      const progress: IngestProgress[] = [];
      const result = await ingestFiles({ db: handle.db, search }, [MEDSAMP], { onProgress: (p) => progress.push(p) });
      expect(result).toMatchObject({
        ingested: 161,
        inserted: 161,
        updated: 0,
        unchanged: 0,
        deleted: 0,
        errors: 0,
        failedFiles: [],
      });
      expect(result.recordsPerSecond).toBeGreaterThan(0);
      expect(await articleCount()).toBe(161);
      expect(progress.at(-1)).toMatchObject({ file: null, records: 161 });
      expect(progress.some((p) => p.file === MEDSAMP && p.fileRecords === 161)).toBe(true);

      const row = await handle.db
        .selectFrom("articles")
        .selectAll()
        .where("pmid", "=", 11237011)
        .executeTakeFirstOrThrow();
      expect(row.title).toBe("Initial sequencing and analysis of the human genome.");
      expect(row.authors).toContain("International Human Genome Sequencing Consortium");
      expect(row.journal).toBe("Nature");
      expect(row.publication_year).toBe(2001);
      expect(row.mesh_terms).toContain("Genome, Human");
      expect(Array.isArray(row.abstract_sections)).toBe(true);

      expect(await hits("human genome sequencing")).toContain(11237011);
    });

    test("Entrez dates and MeSH major topics are stored (a MedlineCitationSet record has no Entrez date)", async () => {
      const file = join(SAMPLE, "pubmedxml_piratevax_pubmed_result.xml.gz");
      expect(await ingestFiles({ db: handle.db, search }, [file])).toMatchObject({ inserted: 10, errors: 0 });
      const read = (pmid: number) =>
        handle.db
          .selectFrom("articles")
          .select([sql<string | null>`entrez_date::text`.as("entrez_date"), "mesh_major_terms"])
          .where("pmid", "=", pmid)
          .executeTakeFirstOrThrow();
      expect(await read(31807843)).toEqual({
        entrez_date: "2019-12-07",
        mesh_major_terms: ["Carcinoma, Non-Small-Cell Lung", "Lung Neoplasms", "Tumor Burden"],
      });
      expect(await read(11237011)).toEqual({
        entrez_date: null,
        mesh_major_terms: ["Genome, Human", "Human Genome Project", "Sequence Analysis, DNA"],
      });
      // Out again, so the next tests see the MedlineCitationSet sample alone.
      const added = (
        await handle.db.selectFrom("articles").select("pmid").where("pmid", ">", 30_000_000).execute()
      ).map((r) => r.pmid);
      await search.delete(added);
      await handle.db.deleteFrom("articles").where("pmid", "in", added).execute();
    });

    test("re-ingesting the same file changes nothing", async () => {
      const before = await handle.db.selectFrom("articles").select(["pmid", "updated_at"]).orderBy("pmid").execute();
      const result = await ingestFiles({ db: handle.db, search }, [MEDSAMP]);
      expect(result).toMatchObject({ ingested: 161, inserted: 0, updated: 0, unchanged: 161, deleted: 0 });
      const after = await handle.db.selectFrom("articles").select(["pmid", "updated_at"]).orderBy("pmid").execute();
      expect(after).toEqual(before);
    });

    test("a changed record is updated and re-indexed", async () => {
      const file = await writeXml(
        "changed.xml",
        `<MedlineCitation><PMID Version="1">11237011</PMID><Article>
           <Journal><JournalIssue><PubDate><Year>2001</Year><Month>Feb</Month></PubDate></JournalIssue><Title>Nature</Title></Journal>
           <ArticleTitle>Initial sequencing of the zebrafish quokka genome.</ArticleTitle></Article></MedlineCitation>`,
      );
      const result = await ingestFiles({ db: handle.db, search }, [file]);
      expect(result).toMatchObject({ ingested: 1, inserted: 0, updated: 1, unchanged: 0 });
      const row = await handle.db
        .selectFrom("articles")
        .select(["title", "authors"])
        .where("pmid", "=", 11237011)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ title: "Initial sequencing of the zebrafish quokka genome.", authors: null });
      expect(await hits("quokka")).toEqual([11237011]);
    });

    test("DeleteCitation removes the articles from the table and from search", async () => {
      const file = await writeXml(
        "delete.xml",
        `<DeleteCitation><PMID Version="1">11237011</PMID><PMID Version="1">99999999</PMID></DeleteCitation>`,
      );
      const result = await ingestFiles({ db: handle.db, search }, [file]);
      expect(result).toMatchObject({ ingested: 0, deleted: 1 });
      expect(await articleCount()).toBe(160);
      expect(await hits("quokka")).toEqual([]);
    });

    test("a record and its deletion in one file: the deletion wins because it comes later", async () => {
      const file = await writeXml(
        "add-then-delete.xml",
        `<MedlineCitation><PMID Version="1">77000001</PMID><Article><ArticleTitle>Ephemeral wombat article.</ArticleTitle></Article></MedlineCitation>
         <DeleteCitation><PMID Version="1">77000001</PMID></DeleteCitation>`,
      );
      const result = await ingestFiles({ db: handle.db, search }, [file], { batchSize: 1 });
      expect(result).toMatchObject({ ingested: 1, inserted: 1, deleted: 1 });
      expect(
        await handle.db.selectFrom("articles").select("pmid").where("pmid", "=", 77000001).executeTakeFirst(),
      ).toBeUndefined();
      expect(await hits("wombat")).toEqual([]);
    });

    test("unreadable files and malformed records are reported; everything else is ingested", async () => {
      const missing = join(dir, "missing.xml.gz");
      const messages: string[] = [];
      const result = await ingestFiles({ db: handle.db, search }, [missing, join(FIXTURES, "malformed-middle.xml")], {
        onError: (m) => messages.push(m),
      });
      expect(result).toMatchObject({ ingested: 2, inserted: 2, errors: 3 });
      expect(result.failedFiles).toEqual([{ file: missing, message: `${missing}: cannot read: no such file` }]);
      expect(messages[0]).toBe(`${missing}: cannot read: no such file`);
      expect(messages.slice(1).map((m) => m.match(/record (\d+)/)?.[1])).toEqual(["2", "3", "4"]);
      expect(await hits("record after")).toContain(950005);
    });

    test("the same PMID twice in one batch: the later version is stored", async () => {
      const file = await writeXml(
        "twice.xml",
        `<MedlineCitation><PMID Version="1">77000002</PMID><Article><ArticleTitle>First version.</ArticleTitle></Article></MedlineCitation>
         <MedlineCitation><PMID Version="1">77000002</PMID><Article><ArticleTitle>Second version.</ArticleTitle></Article></MedlineCitation>`,
      );
      const result = await ingestFiles({ db: handle.db, search }, [file]);
      expect(result).toMatchObject({ ingested: 2, inserted: 1 });
      const row = await handle.db
        .selectFrom("articles")
        .select("title")
        .where("pmid", "=", 77000002)
        .executeTakeFirstOrThrow();
      expect(row.title).toBe("Second version.");
    });

    test("batches written on several connections and indexed in chunks: the later version of a PMID wins everywhere", async () => {
      const record = (pmid: number, title: string) =>
        `<MedlineCitation><PMID Version="1">${pmid}</PMID><Article><ArticleTitle>${title}</ArticleTitle></Article></MedlineCitation>`;
      const records = [
        record(78000001, "Capybara thermoregulation, first version."),
        ...Array.from({ length: 6 }, (_, i) => record(78000010 + i, `Okapi grazing study number ${i}.`)),
        record(78000001, "Narwhal tusk sensitivity, second version."),
        ...Array.from({ length: 3 }, (_, i) => record(78000020 + i, `Okapi browsing survey number ${i}.`)),
      ];
      const file = await writeXml("concurrent.xml", records.join("\n"));
      const result = await ingestFiles({ db: handle.db, search }, [file], {
        batchSize: 1,
        concurrency: 3,
        indexChunk: 2,
      });
      expect(result).toMatchObject({ ingested: 11, inserted: 10, updated: 1, errors: 0 });

      const row = await handle.db
        .selectFrom("articles")
        .select("title")
        .where("pmid", "=", 78000001)
        .executeTakeFirstOrThrow();
      expect(row.title).toBe("Narwhal tusk sensitivity, second version.");
      expect(await hits("narwhal")).toEqual([78000001]);
      expect(await hits("capybara")).toEqual([]);
      expect((await hits("okapi")).length).toBe(9);

      // The statistics still match the index: document frequencies and the document count.
      const { rows } = await sql<{ lexeme: string; df: number; actual: number }>`
        SELECT s.lexeme, s.df::integer AS df,
               (SELECT count(*)::integer FROM article_search a WHERE a.document @@ s.lexeme::tsquery) AS actual
        FROM search_lexeme_stats s WHERE s.lexeme IN ('okapi', 'narwhal', 'capybara', 'version')`.execute(handle.db);
      expect(rows.filter((r) => r.df !== r.actual)).toEqual([]);
      expect(rows.find((r) => r.lexeme === "okapi")?.df).toBe(9);
      expect(rows.find((r) => r.lexeme === "capybara")).toBeUndefined();
      const documents = await sql<{ df: number; actual: number }>`
        SELECT (SELECT df::integer FROM search_lexeme_stats WHERE lexeme = ' documents') AS df,
               (SELECT count(*)::integer FROM article_search) AS actual`.execute(handle.db);
      expect(documents.rows[0]!.df).toBe(documents.rows[0]!.actual);
    });

    test("when indexing fails, the next ingest of the file indexes what the failed run wrote", async () => {
      const file = await writeXml(
        "index-failure.xml",
        Array.from(
          { length: 6 },
          (_, i) =>
            `<MedlineCitation><PMID Version="1">${79000001 + i}</PMID><Article><ArticleTitle>Pangolin scale keratin ${i}.</ArticleTitle></Article></MedlineCitation>`,
        ).join("\n"),
      );
      let calls = 0;
      const failing = Object.assign(Object.create(search) as PostgresSearchIndex, {
        index: async (pmids: number[]) => {
          if (++calls === 2) throw new Error("index unavailable");
          await search.index(pmids);
        },
      });
      await expect(
        ingestFiles({ db: handle.db, search: failing }, [file], { batchSize: 1, indexChunk: 2, concurrency: 2 }),
      ).rejects.toThrow("index unavailable");
      expect((await hits("pangolin")).length).toBeLessThan(6);

      const again = await ingestFiles({ db: handle.db, search }, [file]);
      expect(again.errors).toBe(0);
      expect((await hits("pangolin")).sort()).toEqual(Array.from({ length: 6 }, (_, i) => 79000001 + i));
    });
  });
}

describe("npm run ingest (scripts/ingest-pubmed.ts)", () => {
  test("one summary line on stdout, errors on stderr, exit code 1 when a file cannot be read", async () => {
    const dataDir = join(dir, "cli-data");
    const missing = join(dir, "nope.xml");
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const proc = Bun.spawn(
      [
        process.execPath,
        join(ROOT, "scripts", "ingest-pubmed.ts"),
        join(FIXTURES, "edge-cases.xml"),
        missing,
        join(FIXTURES, "medline-citation-set.xml"),
      ],
      {
        env,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^ingested 6 records \(0 deleted\) in \d+\.\d s \(\d+ records\/s\)\n$/);
    expect(stderr).toContain(`${missing}: cannot read: no such file`);
  }, 60_000);
});
