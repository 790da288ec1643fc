import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { defaultSteps, runReview } from "../../src/reviews/pipeline.ts";
import type { EvidenceRow } from "../../src/reviews/evidence/types.ts";
import { EVIDENCE_CSV_COLUMNS } from "../../src/export/evidence-csv.ts";
import { NO_EVIDENCE_TABLE } from "../../src/export/routes.ts";

// Issue 21 through the API on the real PubMed sample: a review stores its evidence table with the summary, GET
// /details serves it (one row per cited study, in citation order, every text cell a span of the study's abstract),
// the summary opens with its own count of the evidence, the CSV export is read back by csv-parse (an independent
// RFC 4180 reader), and another user's review is 404 for both.

const SAMPLE_DIR = join(import.meta.dir, "..", "..", "sample", "pubmed");
const TOPIC = "antibiotic treatment of vertebral osteomyelitis";

interface Details {
  status: string;
  summary: string | null;
  articles_refs: { pmid: number; abstract: string | null }[];
  evidence_table: EvidenceRow[] | null;
}

/** Whitespace-normalised, as the extractor quotes. */
const norm = (s: string) => s.replace(/\s+/g, " ").trim();

for (const backend of APP_BACKENDS) {
  describe(`the evidence table of a review (${backend})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let other: TestUser;
    let reviewId: string;
    let details: Details;

    const API = "/api/v1/literature_review";
    const create = async (user: TestUser) => {
      const res = await t.app.request(`${API}/create`, { method: "POST", headers: user.headers });
      return ((await res.json()) as { id: string }).id;
    };
    const start = (user: TestUser, id: string, topic: string) => {
      const path = `${API}/start/${id}?user_query=${encodeURIComponent(topic)}`;
      return t.app.request(path, { method: "POST", headers: user.headers });
    };
    const detailsOf = (user: TestUser, id: string) => t.app.request(`${API}/details/${id}`, { headers: user.headers });
    const csvOf = (user: TestUser, id: string) =>
      t.app.request(`/api/v1/export/reviews/${id}/evidence`, { headers: user.headers });

    beforeAll(async () => {
      t = await createTestApp(backend);
      const files = readdirSync(SAMPLE_DIR)
        .filter((f) => f.endsWith(".xml.gz"))
        .map((f) => join(SAMPLE_DIR, f));
      expect((await ingestFiles(t.deps, files)).failedFiles).toEqual([]);
      owner = await t.signup();
      other = await t.signup();
      reviewId = await create(owner);
      expect((await start(owner, reviewId, TOPIC)).status).toBe(200);
      await t.runJobs();
      details = (await (await detailsOf(owner, reviewId)).json()) as Details;
    }, 180_000);
    afterAll(async () => {
      await t?.close();
    });

    test("one row per cited study, in citation order, every text cell a span of its abstract", () => {
      expect(details.status).toBe("complete");
      const rows = details.evidence_table!;
      expect(rows.length).toBeGreaterThan(2);
      expect(rows.map((r) => r.pmid)).toEqual(details.articles_refs.map((a) => a.pmid));
      expect(rows.map((r) => r.citation)).toEqual(rows.map((_, i) => i + 1));
      for (const [i, row] of rows.entries()) {
        const abstract = norm(details.articles_refs[i]!.abstract ?? "");
        const spans = [row.population, row.intervention, row.comparator, row.outcome, row.result];
        for (const span of [...spans, ...row.effects.map((e) => e.text)]) {
          if (span !== null) expect(abstract).toContain(norm(span));
        }
        if (row.participants !== null) {
          expect(Number.isInteger(row.participants)).toBe(true);
          expect(row.participants).toBeGreaterThan(0);
        }
        expect(row.duplicate_pmids).not.toContain(row.pmid);
      }
      // The sample's studies of the topic state designs the table reads (record or abstract).
      expect(rows.some((r) => r.design !== null && r.evidence_level !== null)).toBe(true);
    });

    test("the summary opens with its own count of the cited evidence, which adds up to the table", () => {
      const [first, ...rest] = details.summary!.split("\n\n");
      expect(first).toStartWith("**The evidence.** The summary cites ");
      const count = /The summary cites (.+?)\.(?: |$)/u.exec(first!)![1]!;
      // "2 randomized trials (n = 340), 3 cohort studies and 1 case report": the studies' numbers add up to the rows.
      const numbers = [...count.replace(/\([^)]*\)/gu, "").matchAll(/(?:^|, | and )(\d+) /gu)].map((m) => Number(m[1]));
      const counted = numbers.reduce((sum, n) => sum + n, 0);
      expect(counted).toBe(details.evidence_table!.length);
      // The quoted summary follows unchanged.
      expect(rest.join("\n\n")).toContain("[1]");
      for (const m of first!.matchAll(/\[(\d+(?:, \d+)*)\]/gu)) {
        for (const n of m[1]!.split(", ").map(Number)) expect(n).toBeLessThanOrEqual(details.evidence_table!.length);
      }
    });

    test("the CSV export: PMID first, one line per row, read back by csv-parse", async () => {
      const res = await csvOf(owner, reviewId);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("text/csv");
      expect(res.headers.get("content-disposition")).toMatch(
        /^attachment; filename="litreview-antibiotic-treatment-of-vertebral-evidence-\d{4}-\d{2}-\d{2}\.csv"/u,
      );
      const text = await res.text();
      expect(text).not.toMatch(/[^\r]\n(?=\d+,\d+,)/u); // every record starts after a CRLF
      const records = parse(text, { bom: true, record_delimiter: "\r\n" }) as string[][];
      expect(records[0]).toEqual([...EVIDENCE_CSV_COLUMNS]);
      const rows = details.evidence_table!;
      expect(records.slice(1).map((r) => Number(r[0]))).toEqual(rows.map((r) => r.pmid));
      const result = EVIDENCE_CSV_COLUMNS.indexOf("Main result");
      for (const [i, row] of rows.entries()) expect(records[i + 1]![result]).toBe(row.result ?? "");
    });

    test("another user's review is 404, for the details and the CSV; so is a review without a table", async () => {
      expect((await detailsOf(other, reviewId)).status).toBe(404);
      const csv = await csvOf(other, reviewId);
      expect(csv.status).toBe(404);
      expect(((await csv.json()) as { detail: string }).detail).toBe("Review not found");
      const fresh = await create(owner);
      const none = await csvOf(owner, fresh);
      expect(none.status).toBe(404);
      expect(((await none.json()) as { detail: string }).detail).toBe(NO_EVIDENCE_TABLE);
      expect(((await (await detailsOf(owner, fresh)).json()) as Details).evidence_table).toBeNull();
    });

    test("a review summarised before the table existed has none (null), and no CSV", async () => {
      const id = await create(owner);
      expect((await start(owner, id, "vertebral osteomyelitis")).status).toBe(200);
      await t.runJobs();
      await t.db.updateTable("literature_reviews").set({ evidence_table: null }).where("id", "=", id).execute();
      const d = (await (await detailsOf(owner, id)).json()) as Details;
      expect(d.status).toBe("complete");
      expect(d.evidence_table).toBeNull();
      expect((await csvOf(owner, id)).status).toBe(404);
    });

    test("whichever summarizer wrote the text, the table follows its citations", async () => {
      const id = await create(owner);
      expect((await start(owner, id, TOPIC)).status).toBe(200);
      // Another engine (as the language-model summarizer is) citing the second and the first source, in that order.
      await runReview(t.deps, id, {
        ...defaultSteps,
        summarizer: {
          name: "scripted",
          summarize: async (_q, sources) => ({
            summary: "A finding [1]. Another [2].",
            citedPmids: [sources[1]!.pmid, sources[0]!.pmid],
          }),
        },
      });
      const d = (await (await detailsOf(owner, id)).json()) as Details;
      expect(d.status).toBe("complete");
      expect(d.evidence_table!.map((r) => r.pmid)).toEqual(d.articles_refs.map((a) => a.pmid));
      expect(d.evidence_table).toHaveLength(2);
      expect(d.summary).toEndWith("A finding [1]. Another [2].");
    });
  });
}
