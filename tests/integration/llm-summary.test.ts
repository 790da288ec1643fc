import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LlmSummarizer, type LlmOptions } from "../../src/reviews/llm/llm-summarizer.ts";
import { sentenceProblem } from "../../src/reviews/llm/verify.ts";
import { extractiveSummarizer } from "../../src/reviews/summary/extractive.ts";
import type { SummaryArticle } from "../../src/reviews/summary/types.ts";

// The optional language-model summary against a stand-in of the OpenAI-compatible chat API started here, scripted to
// answer a good synthesis, and also invented citations, invented numbers, garbage, errors, a time-out and malformed
// JSON: each must be caught, and the review still gets a summary (the extractive one when too little is verified).

const ARTICLES: SummaryArticle[] = [
  {
    pmid: 101,
    title: "Salted fish and nasopharyngeal carcinoma in southern China",
    abstract: "In a case-control study of 1,200 patients, consumption of salted fish in childhood was associated with a higher risk of nasopharyngeal carcinoma (odds ratio 2.5).",
    abstract_sections: [],
    publication_year: 2019,
    publication_types: ["Journal Article"],
  },
  {
    pmid: 102,
    title: "Intensity-modulated radiotherapy for nasopharyngeal carcinoma",
    abstract: "Intensity-modulated radiotherapy achieved a 5-year overall survival of 80% in 868 patients with nasopharyngeal carcinoma and reduced xerostomia.",
    abstract_sections: [],
    publication_year: 2020,
    publication_types: ["Journal Article"],
  },
  {
    pmid: 103,
    title: "Epstein-Barr virus DNA as a marker of nasopharyngeal carcinoma",
    abstract: "Plasma Epstein-Barr virus DNA identified nasopharyngeal carcinoma in screening with a sensitivity of 97% and predicted relapse after radiotherapy.",
    abstract_sections: [],
    publication_year: 2021,
    publication_types: ["Journal Article"],
  },
];

const GOOD = [
  "Consumption of salted fish in childhood was associated with a higher risk of nasopharyngeal carcinoma [1].",
  "Intensity-modulated radiotherapy achieved a 5-year overall survival of 80% and reduced xerostomia [2].",
  "Plasma Epstein-Barr virus DNA identified nasopharyngeal carcinoma with a sensitivity of 97% [3].",
  "Epstein-Barr virus DNA also predicted relapse after radiotherapy [3].",
].join(" ");

type Scripted = { status?: number; content?: string; raw?: string; delayMs?: number };

describe("language-model summary (OpenAI-compatible stand-in)", () => {
  const script: Scripted[] = [];
  const requests: { auth: string | null; body: any }[] = [];
  let server: ReturnType<typeof Bun.serve>;
  let opts: LlmOptions;
  const logs: string[] = [];
  const summarizer = () => new LlmSummarizer(opts, extractiveSummarizer, (m) => logs.push(m));

  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        if (new URL(req.url).pathname !== "/v1/chat/completions") return new Response("no", { status: 404 });
        requests.push({ auth: req.headers.get("authorization"), body: await req.json() });
        const next = script.shift() ?? { status: 500 };
        if (next.delayMs) await Bun.sleep(next.delayMs);
        if (next.raw !== undefined) return new Response(next.raw, { status: next.status ?? 200, headers: { "content-type": "application/json" } });
        if (next.status && next.status !== 200) return Response.json({ error: { message: "overloaded" } }, { status: next.status });
        return Response.json({ id: "x", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: next.content }, finish_reason: "stop" }] });
      },
    });
    opts = { baseUrl: `http://127.0.0.1:${server.port}/v1`, model: "test-model", apiKey: "sk-test", timeoutMs: 500 };
  });
  afterAll(() => server.stop(true));

  test("a verified synthesis is used: the model saw the numbered sources; citations map to the supplied PMIDs", async () => {
    script.push({ content: GOOD });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.engine).toBe("language model test-model (4 verified sentences)");
    expect(result.summary).toContain("overall survival of 80% and reduced xerostomia [2].");
    expect(result.citedPmids).toEqual([101, 102, 103]);
    const sent = requests.at(-1)!;
    expect(sent.auth).toBe("Bearer sk-test");
    expect(sent.body.model).toBe("test-model");
    expect(sent.body.messages[1].content).toContain("[2] Intensity-modulated radiotherapy for nasopharyngeal carcinoma.");
  });

  test("an invented citation and an invented number are dropped; the rest stands, renumbered", async () => {
    script.push({
      content: `${GOOD} Proton therapy doubled survival in every trial [9]. Salted fish raised the risk of nasopharyngeal carcinoma by 73% [1].`,
    });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.summary).not.toContain("Proton");
    expect(result.summary).not.toContain("73%");
    expect(result.engine).toBe("language model test-model (4 verified sentences)");
    expect(logs.join("\n")).toContain("cites [9], which was not supplied");
    expect(logs.join("\n")).toContain("states 73, found in no cited source");
  });

  test("a synthesis that only cites one source is renumbered from 1", async () => {
    script.push({
      content:
        "Plasma Epstein-Barr virus DNA identified nasopharyngeal carcinoma in screening [3]. Epstein-Barr virus DNA had a sensitivity of 97% [3]. Epstein-Barr virus DNA predicted relapse after radiotherapy [3].",
    });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.citedPmids).toEqual([103]);
    expect(result.summary).toMatch(/^Plasma Epstein-Barr virus DNA identified nasopharyngeal carcinoma in screening \[1\]\./);
  });

  test.each<[string, Scripted]>([
    ["garbage without citations", { content: "As an AI model I cannot summarise medical literature." }],
    ["an HTTP error", { status: 503 }],
    ["a time-out", { content: GOOD, delayMs: 1500 }],
    ["malformed JSON", { raw: "{not json" }],
    ["an answer without text", { raw: JSON.stringify({ choices: [] }) }],
  ])("%s falls back to the extractive summary, never to an error", async (_name, answer) => {
    script.push(answer);
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.engine).toBe(extractiveSummarizer.name);
    const extractive = await extractiveSummarizer.summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.summary).toBe(extractive.summary);
    expect(result.citedPmids).toEqual(extractive.citedPmids);
  });

  test("the verifier's rules, one by one", () => {
    const sources = ARTICLES.map((a) => `${a.title}. ${a.abstract}`);
    expect(sentenceProblem("Salted fish was associated with nasopharyngeal carcinoma.", sources)).toBe("cites no source");
    expect(sentenceProblem("Salted fish was associated with nasopharyngeal carcinoma [0].", sources)).toBe("cites [0], which was not supplied");
    expect(sentenceProblem("The case-control study had 1,200 patients [1].", sources)).toBeNull();
    expect(sentenceProblem("The case-control study had 1,300 patients [1].", sources)).toBe("states 1300, found in no cited source");
    // A number from another source than the one cited is invented for this citation.
    expect(sentenceProblem("Radiotherapy achieved 97% survival [2].", sources)).toBe("states 97, found in no cited source");
    expect(sentenceProblem("Acupuncture cured migraine headaches completely [2].", sources)).toMatch(/^only \d of \d content words/);
  });
});

describe("a review with LLM_BASE_URL set", () => {
  test("is summarized by the model, verified, and says which engine wrote it", async () => {
    const { createTestApp } = await import("../support/app.ts");
    const { ingestFiles } = await import("../../search/ingest.ts");
    const { join } = await import("node:path");
    // The stand-in model answers with each source's own title, cited: a synthesis that verifies.
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const body = (await req.json()) as { messages: { content: string }[] };
        const sources = [...body.messages[1]!.content.matchAll(/^\[(\d+)\] (.+?)\. /gm)].slice(0, 4);
        const content = sources.map(([, n, title]) => `${title!.replace(/[[\]]/g, "").replace(/[.?!]+$/, "")} [${n}].`).join(" ");
        return Response.json({ choices: [{ message: { role: "assistant", content } }] });
      },
    });
    const t = await createTestApp("pglite", { env: { LLM_BASE_URL: `http://127.0.0.1:${server.port}/v1`, LLM_MODEL: "stand-in-model", LLM_TIMEOUT_MS: "5000" } });
    try {
      await ingestFiles(t.deps, [join(import.meta.dir, "..", "..", "sample", "pubmed", "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz")]);
      const alice = await t.signup();
      const review = (await (await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: alice.headers })).json()) as { id: string };
      await t.app.request(`/api/v1/literature_review/start/${review.id}?user_query=${encodeURIComponent("nasopharyngeal carcinoma radiotherapy")}`, { method: "POST", headers: alice.headers });
      await t.runJobs();
      const details = (await (await t.app.request(`/api/v1/literature_review/details/${review.id}`, { headers: alice.headers })).json()) as {
        status: string;
        summary: string;
        summary_engine: string;
        articles_refs: { pmid: number; title: string }[];
      };
      expect(details.status).toBe("complete");
      expect(details.summary_engine).toMatch(/^language model stand-in-model \(\d verified sentences\)$/);
      // [1] is the first cited article, whose title the model wrote.
      expect(details.summary).toContain(`${details.articles_refs[0]!.title.replace(/[[\]]/g, "").replace(/[.?!]+$/, "")} [1].`);
    } finally {
      await t.close();
      server.stop(true);
    }
  }, 60_000);
});
