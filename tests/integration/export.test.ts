import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Hono } from "hono";
import { Cite } from "@citation-js/core";
import "@citation-js/plugin-ris";
import "@citation-js/plugin-bibtex";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { parseMedline } from "../../src/export/medline.ts";
import { EXPORT_FORMATS, exportFileName, topicSlug, writeReferences } from "../../src/export/formats.ts";
import type { ExportFormat } from "../../src/export/formats.ts";
import { toCsl } from "../../src/export/csl.ts";
import { MAX_EXPORT_RECORDS, articlesForExport, likedBatches } from "../../src/export/repository.ts";
import { referenceStream } from "../../src/export/stream.ts";
import { exportRoutes } from "../../src/export/routes.ts";
import { sql } from "kysely";
import { onError } from "../../src/http/errors.ts";

// Exports for reference managers (issue 13), on real PubMed records: each file is parsed back with the citation
// library (RIS, BibTeX, CSL-JSON) or the MEDLINE reader, and must give back the articles, in their list's order, with
// their titles, authors, journal, year, DOI and PMID. Another user's review is 404. File names say what they hold, from
// an injected clock (no test depends on today's date). Field-by-field fidelity over the whole sample:
// export-fidelity.test.ts. Issue 22: a long list is sent in batches that give the event loop back, byte for byte the
// file written at once, at most MAX_EXPORT_RECORDS records per file (skip and limit choose the part).

/** The clock of the routes mounted by `clocked`: 26 November 2026, late in the UTC day. */
const NOW = new Date("2026-11-26T23:30:00Z");

const SAMPLE = join(
  import.meta.dir,
  "..",
  "..",
  "sample",
  "pubmed",
  "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz",
);
const TOPIC = "nasopharyngeal carcinoma radiotherapy";

for (const backend of APP_BACKENDS) {
  describe(`export (${backend})`, () => {
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;
    let reviewId: string;
    let liked: number[];

    const get = (u: TestUser, path: string) => t.app.request(`/api/v1/export${path}`, { headers: u.headers });
    /** The export routes alone, with the fixed clock. */
    let clocked: Hono;
    const getClocked = (u: TestUser, path: string) => clocked.request(`/api/v1/export${path}`, { headers: u.headers });

    beforeAll(async () => {
      t = await createTestApp(backend);
      clocked = new Hono();
      clocked.route("/api/v1/export", exportRoutes(t.deps, { now: () => NOW }));
      clocked.onError(onError);
      await ingestFiles(t.deps, [SAMPLE]);
      alice = await t.signup({ full_name: "Alice" });
      bob = await t.signup();
      const created = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: alice.headers })
      ).json()) as { id: string };
      reviewId = created.id;
      expect(
        (
          await t.app.request(`/api/v1/literature_review/start/${reviewId}?user_query=${encodeURIComponent(TOPIC)}`, {
            method: "POST",
            headers: alice.headers,
          })
        ).status,
      ).toBe(200);
      await t.runJobs();
      const rows = await t.db
        .selectFrom("articles")
        .select("pmid")
        .where("doi", "is not", null)
        .orderBy("pmid")
        .limit(3)
        .execute();
      liked = rows.map((r) => r.pmid);
      for (const p of liked) await t.app.request(`/api/v1/likes/${p}`, { method: "POST", headers: alice.headers });
    });
    afterAll(() => t.close());

    const articleOf = (pmid: number) =>
      t.db.selectFrom("articles").selectAll().where("pmid", "=", pmid).executeTakeFirstOrThrow();

    test("liked articles as RIS: parsed back by the citation library, newest like first, with DOI and PMID", async () => {
      const res = await getClocked(alice, "/likes?format=ris");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/x-research-info-systems");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="litreview-likes-2026-11-26.ris"; filename*=UTF-8''litreview-likes-2026-11-26.ris`,
      );
      const text = await res.text();
      const items = new Cite(text).data as {
        title: string;
        DOI?: string;
        author: { family?: string }[];
        "container-title"?: string;
      }[];
      expect(items).toHaveLength(3);
      const newestFirst = [...liked].reverse();
      for (const [i, item] of items.entries()) {
        const a = await articleOf(newestFirst[i]!);
        expect(item.title).toBe(a.title!);
        expect(item["container-title"]).toBe(a.journal!);
        expect(item.author[0]!.family).toBe(a.authors!.split(", ")[0]!.replace(/\s+\p{Lu}{1,3}(?: \S+)?$/u, ""));
      }
      expect(text).toContain(`AN  - ${newestFirst[0]}`);
      expect(text).toContain(`DO  - ${(await articleOf(newestFirst[0]!)).doi}`);
    });

    test("a review's cited articles as BibTeX and CSL-JSON, in citation order; all relevant articles in rank order", async () => {
      const cited = await t.db
        .selectFrom("literature_review_articles")
        .select("pmid")
        .where("review_id", "=", reviewId)
        .where("citation_number", "is not", null)
        .orderBy("citation_number")
        .execute();
      expect(cited.length).toBeGreaterThan(2);
      const bib = await (await get(alice, `/reviews/${reviewId}?format=bibtex`)).text();
      const fromBib = new Cite(bib).data as { title: string }[];
      // A BibTeX reader takes TeX's "--" for an en dash, as TeX prints it.
      const asTexReadsIt = (title: string) => title.replace(/(?<!-)--(?!-)/g, "\u2013");
      const titles = await Promise.all(cited.map(async (c) => asTexReadsIt((await articleOf(c.pmid)).title!)));
      expect(fromBib.map((i) => i.title)).toEqual(titles);
      const csl = (await (await get(alice, `/reviews/${reviewId}?format=csl-json&list=cited`)).json()) as {
        PMID: string;
        type: string;
      }[];
      expect(csl.map((i) => Number(i.PMID))).toEqual(cited.map((c) => c.pmid));
      expect(csl[0]!.type).toBe("article-journal");
      const ranked = await t.db
        .selectFrom("literature_review_articles")
        .select("pmid")
        .where("review_id", "=", reviewId)
        .orderBy("rank")
        .execute();
      const all = (await (await get(alice, `/reviews/${reviewId}?format=csl-json&list=relevant`)).json()) as {
        PMID: string;
      }[];
      expect(all.map((i) => Number(i.PMID))).toEqual(ranked.map((r) => r.pmid));
    });

    test("MEDLINE (.nbib): one record per article with PubMed's tags, long fields wrapped, read back whole", async () => {
      const res = await getClocked(alice, `/reviews/${reviewId}?format=nbib`);
      const name = "litreview-nasopharyngeal-carcinoma-radiotherapy-cited-2026-11-26.nbib";
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
      expect(
        (await getClocked(alice, `/reviews/${reviewId}?format=bibtex&list=relevant`)).headers.get(
          "content-disposition",
        ),
      ).toContain('filename="litreview-nasopharyngeal-carcinoma-radiotherapy-relevant-2026-11-26.bib"');
      expect((await getClocked(bob, `/reviews/${reviewId}?format=ris`)).status).toBe(404);
      const text = await res.text();
      for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
      const records = parseMedline(text);
      const first = await articleOf(Number(records[0]!.PMID![0]));
      expect(records[0]!.TI![0]).toBe(first.title!.replace(/\s+/g, " ").trim());
      expect(records[0]!.AB![0]).toBe(first.abstract!.replace(/\s+/g, " ").trim());
      expect((records[0]!.AU ?? []).length + (records[0]!.CN ?? []).length).toBe(
        (first.author_list as unknown[]).length,
      );
      expect(records[0]!.JT).toEqual([first.journal!]);
    });

    test("the summary with Vancouver references: markup removed, one numbered reference per citation", async () => {
      const res = await get(alice, `/reviews/${reviewId}/summary`);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = await res.text();
      expect(text.startsWith(`Literature review: ${TOPIC}`)).toBe(true);
      expect(text).not.toContain("**");
      const references = text
        .slice(text.indexOf("References\n") + "References\n".length)
        .trim()
        .split("\n");
      const citedCount = (
        await t.db
          .selectFrom("literature_review_articles")
          .select("pmid")
          .where("review_id", "=", reviewId)
          .where("citation_number", "is not", null)
          .execute()
      ).length;
      expect(references).toHaveLength(citedCount);
      expect(references[0]).toMatch(/^1\. .+\. \d{4}/);
      // NLM's form: each reference ends with the citation line the article card shows, volume, issue and pages
      // included.
      const cited = await t.db
        .selectFrom("literature_review_articles as r")
        .innerJoin("articles as a", "a.pmid", "r.pmid")
        .select(["a.volume", "a.issue", "a.medline_pages"])
        .where("r.review_id", "=", reviewId)
        .where("r.citation_number", "is not", null)
        .orderBy("r.citation_number")
        .execute();
      for (const [i, c] of cited.entries())
        if (c.volume && c.issue && c.medline_pages)
          expect(references[i]).toContain(`;${c.volume}(${c.issue}):${c.medline_pages}.`);
      expect(references.at(-1)).toMatch(new RegExp(`^${citedCount}\\. `));
    });

    /** `n` likes by a new user, newest first as the export lists them (pairs share a timestamp: PMID breaks ties). */
    async function manyLikes(n: number): Promise<{ user: TestUser; newestFirst: number[] }> {
      const user = await t.signup();
      await sql`
        INSERT INTO likes (user_id, article_pmid, liked_at)
        SELECT ${user.user.id}::uuid, pmid,
               timestamptz '2026-01-01' + ((row_number() OVER (ORDER BY pmid)) / 2) * interval '1.000001 second'
        FROM (SELECT pmid FROM articles ORDER BY pmid LIMIT ${n}) a`.execute(t.db);
      const rows = await t.db
        .selectFrom("likes")
        .select("article_pmid")
        .where("user_id", "=", user.user.id)
        .orderBy("liked_at", "desc")
        .orderBy("article_pmid", "desc")
        .execute();
      return { user, newestFirst: rows.map((r) => r.article_pmid) };
    }

    test("a long list is streamed in batches that give the loop back, byte for byte the whole file", async () => {
      const { user, newestFirst } = await manyLikes(210);
      const articles = await articlesForExport(t.db, newestFirst);
      for (const format of Object.keys(EXPORT_FORMATS) as ExportFormat[]) {
        const res = await get(user, `/likes?format=${format}`);
        expect(res.status).toBe(200);
        expect(res.headers.get("x-total-count")).toBe("210");
        const reader = res.body!.getReader();
        const chunks: Uint8Array[] = [];
        let timerRan = false;
        let timerRanBeforeLast = false;
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          if (chunks.length === 1) timerRanBeforeLast = timerRan;
          chunks.push(chunk.value);
          // A timer set once the first part has arrived runs before the file is complete: the loop was given back.
          if (chunks.length === 1) setTimeout(() => (timerRan = true), 0);
        }
        // 210 records in batches of 100: at least three parts (CSL-JSON and MEDLINE add their closing part).
        expect(chunks.length, format).toBeGreaterThanOrEqual(3);
        expect(timerRan || timerRanBeforeLast, format).toBe(true);
        expect(Buffer.concat(chunks).toString("utf8"), format).toBe(writeReferences(articles, format));
      }
    });

    test("batch boundaries change nothing: BibTeX keys unique over the file, CSL-JSON as JSON.stringify", async () => {
      const { user, newestFirst } = await manyLikes(60);
      const articles = await articlesForExport(t.db, newestFirst);
      const whole = (format: ExportFormat) => writeReferences(articles.slice(3, 53), format);
      for (const format of Object.keys(EXPORT_FORMATS) as ExportFormat[]) {
        const stream = await referenceStream(likedBatches(t.db, user.user.id, { skip: 3, limit: 50 }, 7), format);
        expect(await new Response(stream).text(), format).toBe(whole(format));
      }
      // Written one record at a time, CSL-JSON is still JSON.stringify's array, also for text holding U+2028 and U+2029
      // (which JSON leaves raw, and which a multiline regular expression takes for line ends).
      const odd = { ...articles[0]!, abstract: "First line\u2028second\u2029third\nfourth" };
      const items = [articles[1]!, odd, articles[2]!];
      expect(writeReferences(items, "csl-json")).toBe(`${JSON.stringify(items.map(toCsl), null, 2)}\n`);
      expect(writeReferences([], "csl-json")).toBe("[]\n");
      expect(writeReferences([], "nbib")).toBe("\n");
      expect(writeReferences([], "ris")).toBe("");
    });

    test(`at most ${MAX_EXPORT_RECORDS} records a file: skip and limit choose, X-Total-Count tells`, async () => {
      const { user, newestFirst } = await manyLikes(12);
      const pmidsOf = async (res: Response) => ((await res.json()) as { PMID: string }[]).map((i) => Number(i.PMID));
      expect(await pmidsOf(await get(user, "/likes?format=csl-json&limit=5"))).toEqual(newestFirst.slice(0, 5));
      const tail = await get(user, "/likes?format=csl-json&skip=10&limit=5");
      expect(tail.headers.get("x-total-count")).toBe("12");
      expect(await pmidsOf(tail)).toEqual(newestFirst.slice(10));
      expect(await pmidsOf(await get(user, "/likes?format=csl-json&skip=12"))).toEqual([]);
      expect((await get(user, `/likes?format=ris&limit=${MAX_EXPORT_RECORDS + 1}`)).status).toBe(422);
      expect((await get(user, "/likes?format=ris&limit=0")).status).toBe(422);
      expect((await get(user, "/likes?format=ris&skip=-1")).status).toBe(422);
      // A review's lists too, in rank order.
      const rankedRows = await t.db
        .selectFrom("literature_review_articles")
        .select("pmid")
        .where("review_id", "=", reviewId)
        .orderBy("rank")
        .execute();
      const ranked = rankedRows.map((r) => r.pmid);
      const part = await get(alice, `/reviews/${reviewId}?format=csl-json&list=relevant&skip=1&limit=2`);
      expect(part.headers.get("x-total-count")).toBe(String(ranked.length));
      expect(await pmidsOf(part)).toEqual(ranked.slice(1, 3));
    });

    test("only the caller's own review: another user's is 404; a bad format or list is 422", async () => {
      expect((await get(bob, `/reviews/${reviewId}?format=ris`)).status).toBe(404);
      expect((await get(bob, `/reviews/${reviewId}/summary`)).status).toBe(404);
      expect((await get(alice, "/reviews/not-a-uuid?format=ris")).status).toBe(404);
      expect((await get(alice, "/likes?format=docx")).status).toBe(422);
      expect((await get(alice, `/reviews/${reviewId}?format=ris&list=everything`)).status).toBe(422);
      expect((await t.app.request("/api/v1/export/likes?format=ris")).status).toBe(401);
      // Bob has no likes: an empty but valid file.
      expect(JSON.parse(await (await get(bob, "/likes?format=csl-json")).text())).toEqual([]);
    });
  });
}

describe("export file names", () => {
  test("the topic shortened to an ASCII slug of at most 40 characters, cut at a word; the list; the UTC day", () => {
    expect(
      topicSlug("Nasopharyngeal carcinoma: radiotherapy (IMRT) vs. chemoradiation in Würzburg's elderly patients"),
    ).toBe("nasopharyngeal-carcinoma-radiotherapy");
    expect(topicSlug("Ménière's disease")).toBe("meniere-s-disease");
    expect(topicSlug("Kawasaki")).toBe("kawasaki");
    expect(topicSlug("  ")).toBe("review");
    expect(topicSlug("日本語")).toBe("review");
    for (const topic of ["a".repeat(80), "x ".repeat(60), "pneumothorax-management-in-spontaneous-cases-of-youth"])
      expect(topicSlug(topic).length).toBeLessThanOrEqual(40);
    expect(exportFileName({ likes: true }, "ris", NOW)).toBe("litreview-likes-2026-11-26.ris");
    expect(
      exportFileName({ topic: "COVID-19 vaccines", list: "relevant" }, "csl-json", new Date("2027-01-02T00:00:00Z")),
    ).toBe("litreview-covid-19-vaccines-relevant-2027-01-02.json");
  });
});
