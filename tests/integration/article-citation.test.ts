import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { readArticle } from "../../src/articles/repository.ts";
import { ArticlePublicSchema, KeptArticleSchema } from "../../src/articles/schemas.ts";

// The API's article carries what a citation needs (issue 20): real PubMed records ingested through the real parser,
// read back through every builder of ArticlePublic (likes and shares' kept articles; the reviews' and shares' reader),
// on PGlite and PostgreSQL. Values as the records' XML gives them and PubMed's own citation line shows them.

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");

/** The PubmedArticle / PubmedBookArticle records of a sample file with these PMIDs, as one PubmedArticleSet. */
function pick(file: string, pmids: number[]): string {
  const xml = gunzipSync(readFileSync(join(SAMPLE, file))).toString("utf8");
  const records = [...xml.matchAll(/<(PubmedArticle|PubmedBookArticle)>[\s\S]*?<\/\1>/g)].map((m) => m[0]);
  const own = (r: string) => Number(/<(?:MedlineCitation|BookDocument)[^>]*>\s*<PMID[^>]*>(\d+)<\/PMID>/.exec(r)?.[1]);
  return records.filter((r) => pmids.includes(own(r))).join("\n");
}

const SUPPLEMENT = 17728678; // Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5.
const SUFFIX = 19385576; // Crawford CH 3rd
const GROUP = 27171663; // "International Spine Study Group, Denver, CO"
const E_ONLY = 22587885; // BMJ Open, pii e000988, no MedlinePgn
const CHAPTER = 29337475; // PDQ, a chapter of a book

for (const backend of APP_BACKENDS) {
  describe(`the API's article carries the citation fields (${backend})`, () => {
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;
    let dir: string;

    const call = (user: TestUser, method: string, path: string, body?: unknown) =>
      t.app.request(`/api/v1${path}`, {
        method,
        headers: { ...user.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "lr-citation-"));
      const file = join(dir, "citation-sample.xml");
      await Bun.write(
        file,
        `<?xml version="1.0" encoding="UTF-8"?>\n<PubmedArticleSet>\n${pick("merged-pubmedarticleset.xml.gz", [SUPPLEMENT, SUFFIX, GROUP, E_ONLY])}\n${pick(
          "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz",
          [CHAPTER],
        )}\n</PubmedArticleSet>\n`,
      );
      t = await createTestApp(backend);
      const result = await ingestFiles(t.deps, [file]);
      expect(result).toMatchObject({ inserted: 5 });
      alice = await t.signup({ full_name: "Alice Liddell" });
      bob = await t.signup({ full_name: "Bob Builder" });
    });
    afterAll(async () => {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    });

    test("an article as reviews and shares read it (articleColumns): volume, issue, pages in full, abbreviation, citation line", async () => {
      const a = (await readArticle(t.db, SUPPLEMENT))!;
      expect(ArticlePublicSchema.parse(a)).toBeTruthy();
      expect(a).toMatchObject({
        volume: "32",
        issue: "19 Suppl",
        pages: "S120-S125",
        medline_pages: "S120-5",
        journal: "Spine",
        journal_abbreviation: "Spine",
        citation: "Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5.",
        record_kind: "article",
        authors: "Mercado E, Alman B, Wright JG",
      });
      expect(a.author_list).toEqual([
        { family: "Mercado", given: "Eyal", initials: "E", suffix: null, orcid: null },
        { family: "Alman", given: "Benjamin", initials: "B", suffix: null, orcid: null },
        { family: "Wright", given: "James G", initials: "JG", suffix: null, orcid: null },
      ]);
      // The raw columns the fields are computed from stay out of the API.
      expect(Object.keys(a)).not.toContain("journal_medline_ta");
      expect(Object.keys(a)).not.toContain("start_page");

      const eOnly = (await readArticle(t.db, E_ONLY))!;
      expect(eOnly).toMatchObject({
        volume: "2",
        issue: "3",
        pages: "e000988",
        medline_pages: null,
        citation: "BMJ Open. 2012;2(3):e000988.",
      });
      const chapter = (await readArticle(t.db, CHAPTER))!;
      expect(chapter).toMatchObject({
        record_kind: "chapter",
        journal: null,
        volume: null,
        pages: null,
        citation: "In: PDQ Cancer Information Summaries. Bethesda (MD): National Cancer Institute (US); 2002.",
        author_list: [{ group: "PDQ Pediatric Treatment Editorial Board" }],
      });
    });

    test("a liked article (kept articles): suffix apart, group author whole, the display string as before", async () => {
      const liked = await call(alice, "POST", `/likes/${SUFFIX}`);
      expect(liked.status).toBe(200);
      const body = await liked.json();
      expect(KeptArticleSchema.parse(body)).toBeTruthy();
      expect(body).toMatchObject({
        authors: "Crawford CH 3rd, Glassman SD",
        citation: "Instr Course Lect. 2009;58:669-76.",
        pages: "669-676",
        volume: "58",
        issue: null,
      });
      expect(body.author_list[0]).toEqual({
        family: "Crawford",
        given: "Charles H",
        initials: "CH",
        suffix: "3rd",
        orcid: null,
      });

      await call(alice, "POST", `/likes/${GROUP}`);
      const list = (await (await call(alice, "GET", "/likes/my")).json()) as { items?: unknown[] } | unknown[];
      const items = (Array.isArray(list) ? list : (list.items ?? [])) as {
        pmid: number;
        author_list: unknown[];
        citation: string;
      }[];
      const group = items.find((i) => i.pmid === GROUP)!;
      expect(group.author_list.at(-1)).toEqual({ group: "International Spine Study Group, Denver, CO" });
      expect(group.author_list).toHaveLength(7);
      expect(group.citation).toBe("Clin Spine Surg. 2016 Oct;29(8):E384-8.");
    });

    test("a received share carries them too", async () => {
      const shared = await call(alice, "POST", `/shares/${SUPPLEMENT}`, { recipient_email: bob.user.email });
      expect(shared.status).toBeLessThan(300);
      const received = (await (await call(bob, "GET", "/shares/received")).json()) as { items?: unknown[] } | unknown[];
      const items = (Array.isArray(received) ? received : (received.items ?? [])) as {
        article: Record<string, unknown>;
      }[];
      expect(items[0]!.article).toMatchObject({
        pmid: SUPPLEMENT,
        citation: "Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5.",
        pages: "S120-S125",
      });
    });
  });
}
