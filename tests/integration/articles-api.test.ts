import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { StudyEvidenceSchema } from "../../src/reviews/evidence/schemas.ts";
import { ArticlePublicSchema } from "../../src/articles/schemas.ts";

// GET /api/v1/articles/{pmid} and /articles/{pmid}/evidence (issue 33 item 6), on real sample records ingested through
// the real parser: the article with its citation fields, and the same evidence row the review's table shows, each
// number with the sentence it was read from; signed-in users only; 404 for a PMID the index does not hold.

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
const TRIAL = 17059514; // a randomised trial: 51 patients, relapse 34.6% vs 64.0%, HR 0.40 (95% CI 0.16-0.98)

/** The MedlineCitation records of NLM's 2014 sample file with these PMIDs. */
function pick(pmids: number[]): string {
  const xml = gunzipSync(readFileSync(join(SAMPLE, "medlinecitationset_nlm_medsamp2014.xml.gz"))).toString("utf8");
  const records = [...xml.matchAll(/<MedlineCitation[ >][\s\S]*?<\/MedlineCitation>/g)].map((m) => m[0]);
  const own = (r: string) => Number(/<PMID[^>]*>(\d+)<\/PMID>/.exec(r)?.[1]);
  return records.filter((r) => pmids.includes(own(r))).join("\n");
}

for (const backend of APP_BACKENDS) {
  describe(`articles and their evidence (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "lr-articles-"));
      const file = join(dir, "trial.xml");
      await Bun.write(file, `<?xml version="1.0"?>\n<MedlineCitationSet>\n${pick([TRIAL])}\n</MedlineCitationSet>\n`);
      t = await createTestApp(backend);
      expect(await ingestFiles(t.deps, [file])).toMatchObject({ inserted: 1 });
      user = await t.signup();
    });
    afterAll(async () => {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    });

    const get = (path: string, headers: Record<string, string> = user.headers) =>
      t.app.request(`/api/v1${path}`, { headers });

    test("an article with its citation fields", async () => {
      const res = await get(`/articles/${TRIAL}`);
      expect(res.status).toBe(200);
      const article = ArticlePublicSchema.parse(await res.json());
      expect(article.pmid).toBe(TRIAL);
      expect(article.citation).toBe("Aliment Pharmacol Ther. 2006 Nov 1;24(9):1333-40.");
      expect(article.study_design).toBe("rct");
    });

    test("its evidence: design, participants with their sentence, the effects with theirs", async () => {
      const res = await get(`/articles/${TRIAL}/evidence`);
      expect(res.status).toBe(200);
      const e = StudyEvidenceSchema.parse(await res.json());
      expect([e.design, e.evidence_level, e.participants]).toEqual(["rct", 2, 51]);
      expect(e.participants_text).toContain("51");
      const hr = e.effects.find((x) => x.measure === "hazard ratio");
      expect([hr?.value, hr?.ci_low, hr?.ci_high]).toEqual([0.4, 0.16, 0.98]);
      // Full names of the measures, and every number's source is a sentence of the abstract.
      const article = (await (await get(`/articles/${TRIAL}`)).json()) as { abstract: string };
      const text = article.abstract.replace(/\s+/g, " ");
      for (const x of e.effects) expect(text).toContain(x.text);
      expect(e.effects.map((x) => x.measure)).toEqual(["percentage", "hazard ratio"]);
    });

    test("a PMID the index does not hold: 404 with its detail; not a PMID: 422", async () => {
      for (const path of ["/articles/99999999", "/articles/99999999/evidence"]) {
        const res = await get(path);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ detail: "Article not found" });
      }
      expect((await get("/articles/abc/evidence")).status).toBe(422);
      expect((await get("/articles/0")).status).toBe(422);
    });

    test("signed out: 401", async () => {
      expect((await get(`/articles/${TRIAL}`, {})).status).toBe(401);
      expect((await get(`/articles/${TRIAL}/evidence`, {})).status).toBe(401);
    });
  });
}
