import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import {
  LlmSummarizer,
  MAX_ANSWER_BYTES,
  MAX_KEPT_SENTENCES,
  workerConcurrency,
  type LlmOptions,
} from "../../src/reviews/llm/llm-summarizer.ts";
import { sentenceProblem } from "../../src/reviews/llm/verify.ts";
import { extractiveSummarizer } from "../../src/reviews/summary/extractive.ts";
import type { SummaryArticle } from "../../src/reviews/summary/types.ts";
import { startLlmStandIn, type LlmAnswer, type LlmStandIn } from "../support/llm-stand-in.ts";

// The optional language-model summary against a stand-in of the OpenAI-compatible chat API (tests/support), scripted
// to answer a good synthesis, and also invented citations, invented numbers, garbage, errors, a time-out, malformed
// JSON, 50 MB, loose citation brackets and a hang: each must be caught, and the review still gets a summary (the
// extractive one when too little is verified), without holding the memory or the workers other reviews need.

const ARTICLES: SummaryArticle[] = [
  {
    pmid: 101,
    title: "Salted fish and nasopharyngeal carcinoma in southern China",
    abstract:
      "In a case-control study of 1,200 patients, consumption of salted fish in childhood was associated with a higher risk of nasopharyngeal carcinoma (odds ratio 2.5).",
    abstract_sections: [],
    publication_year: 2019,
    publication_types: ["Journal Article"],
  },
  {
    pmid: 102,
    title: "Intensity-modulated radiotherapy for nasopharyngeal carcinoma",
    abstract:
      "Intensity-modulated radiotherapy achieved a 5-year overall survival of 80% in 868 patients with nasopharyngeal carcinoma and reduced xerostomia.",
    abstract_sections: [],
    publication_year: 2020,
    publication_types: ["Journal Article"],
  },
  {
    pmid: 103,
    title: "Epstein-Barr virus DNA as a marker of nasopharyngeal carcinoma",
    abstract:
      "Plasma Epstein-Barr virus DNA identified nasopharyngeal carcinoma in screening with a sensitivity of 97% and predicted relapse after radiotherapy.",
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

/** Waits until `done()` holds, polling every 10 ms; fails after `ms`. */
async function waitFor(done: () => boolean, ms = 10_000): Promise<void> {
  const until = performance.now() + ms;
  while (!done()) {
    if (performance.now() > until) throw new Error("condition not reached in time");
    await Bun.sleep(10);
  }
}

describe("language-model summary (OpenAI-compatible stand-in)", () => {
  let standIn: LlmStandIn;
  let opts: LlmOptions;
  const logs: string[] = [];
  const summarizer = (o: Partial<LlmOptions> = {}) =>
    new LlmSummarizer({ ...opts, ...o }, extractiveSummarizer, (m) => logs.push(m));
  const script = (answer: LlmAnswer) => standIn.script.push(answer);
  const requests = () => standIn.requests;

  beforeAll(() => {
    standIn = startLlmStandIn();
    opts = { baseUrl: standIn.baseUrl, model: "test-model", apiKey: "sk-test", timeoutMs: 500, concurrency: 1 };
  });
  afterAll(() => standIn.stop());
  beforeEach(() => {
    logs.length = 0;
  });

  test("a verified synthesis is used: the model saw the numbered sources; citations map to the supplied PMIDs", async () => {
    script({ content: GOOD });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.engine).toBe("language model test-model (4 verified sentences)");
    expect(result.summary).toContain("overall survival of 80% and reduced xerostomia [2].");
    expect(result.citedPmids).toEqual([101, 102, 103]);
    const sent = requests().at(-1)!;
    expect(sent.auth).toBe("Bearer sk-test");
    expect(sent.body.model).toBe("test-model");
    expect(sent.body.messages[1]!.content).toContain(
      "[2] Intensity-modulated radiotherapy for nasopharyngeal carcinoma.",
    );
  });

  test("an invented citation and an invented number are dropped; the rest stands, renumbered", async () => {
    script({
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
    script({
      content:
        "Plasma Epstein-Barr virus DNA identified nasopharyngeal carcinoma in screening [3]. Epstein-Barr virus DNA had a sensitivity of 97% [3]. Epstein-Barr virus DNA predicted relapse after radiotherapy [3].",
    });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.citedPmids).toEqual([103]);
    expect(result.summary).toMatch(
      /^Plasma Epstein-Barr virus DNA identified nasopharyngeal carcinoma in screening \[1\]\./,
    );
  });

  test.each<[string, LlmAnswer]>([
    ["garbage without citations", { content: "As an AI model I cannot summarise medical literature." }],
    ["an HTTP error", { status: 503 }],
    ["a time-out", { content: GOOD, delayMs: 1500 }],
    ["malformed JSON", { raw: "{not json" }],
    ["an answer without text", { raw: JSON.stringify({ choices: [] }) }],
  ])("%s falls back to the extractive summary, never to an error", async (_name, answer) => {
    script(answer);
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.engine).toBe(extractiveSummarizer.name);
    const extractive = await extractiveSummarizer.summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.summary).toBe(extractive.summary);
    expect(result.citedPmids).toEqual(extractive.citedPmids);
  });

  test("the verifier's rules, one by one", () => {
    const sources = ARTICLES.map((a) => `${a.title}. ${a.abstract}`);
    expect(sentenceProblem("Salted fish was associated with nasopharyngeal carcinoma.", sources)).toBe(
      "cites no source",
    );
    expect(sentenceProblem("Salted fish was associated with nasopharyngeal carcinoma [0].", sources)).toBe(
      "cites [0], which was not supplied",
    );
    expect(sentenceProblem("The case-control study had 1,200 patients [1].", sources)).toBeNull();
    expect(sentenceProblem("The case-control study had 1,300 patients [1].", sources)).toBe(
      "states 1300, found in no cited source",
    );
    // A number from another source than the one cited is invented for this citation.
    expect(sentenceProblem("Radiotherapy achieved 97% survival [2].", sources)).toBe(
      "states 97, found in no cited source",
    );
    expect(sentenceProblem("Acupuncture cured migraine headaches completely [2].", sources)).toMatch(
      /^only \d of \d content words/,
    );
  });

  // Issue 22, item 1: an answer of 50 MB was read whole, verified and stored (292,401 sentences).
  test("a 50 MB answer is cut off at the byte limit: the extractive summary is used and the request ends at once", async () => {
    script({ huge: 50 * 1024 * 1024, sentence: GOOD });
    const started = performance.now();
    const result = await summarizer({ timeoutMs: 30_000 }).summarize("nasopharyngeal carcinoma", ARTICLES);
    const elapsed = performance.now() - started;
    expect(result.engine).toBe(extractiveSummarizer.name);
    expect(result.summary).toBe((await extractiveSummarizer.summarize("nasopharyngeal carcinoma", ARTICLES)).summary);
    expect(logs.at(-1)).toBe(
      `[llm] language model answered more than ${MAX_ANSWER_BYTES} bytes: the extractive summary is used`,
    );
    // The reading stopped at the limit: the stand-in saw the body cancelled long before its 50 MB were sent (what it
    // counts as sent includes what the kernel's socket buffers took, a few MB on loopback).
    await waitFor(() => requests().at(-1)!.cancelled);
    expect(requests().at(-1)!.sentBytes).toBeLessThan(16 * 1024 * 1024);
    expect(elapsed).toBeLessThan(5_000);
  });

  test("an answer declaring more than the limit is not read at all", async () => {
    script({ raw: JSON.stringify({ choices: [{ message: { content: `${GOOD} ${"x".repeat(MAX_ANSWER_BYTES)}` } }] }) });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.engine).toBe(extractiveSummarizer.name);
    expect(logs.at(-1)).toContain(`answered more than ${MAX_ANSWER_BYTES} bytes`);
  });

  test(`at most ${MAX_KEPT_SENTENCES} verified sentences are kept (the prompt asks for 4 to 8)`, async () => {
    script({ content: Array.from({ length: 10 }, () => GOOD).join(" ") });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.engine).toBe(`language model test-model (${MAX_KEPT_SENTENCES} verified sentences)`);
    expect(result.summary!.match(/\[\d+\]\./g)?.length).toBe(MAX_KEPT_SENTENCES);
  });

  // Issue 22, item 2: "[ 2]" was never renumbered (and pointed at another article); "[ 99]" passed the checker.
  test("citations with spaces inside the brackets are checked and renumbered like the others", async () => {
    script({
      content: [
        "Plasma Epstein-Barr virus DNA identified nasopharyngeal carcinoma in screening [ 3].",
        "Intensity-modulated radiotherapy reduced xerostomia [ 2 ].",
        "Epstein-Barr virus DNA predicted relapse after radiotherapy [3 ,2].",
        "Salted fish in childhood was associated with nasopharyngeal carcinoma [1] [ 99].",
      ].join(" "),
    });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.summary).toBe(
      "Plasma Epstein-Barr virus DNA identified nasopharyngeal carcinoma in screening [1]. " +
        "Intensity-modulated radiotherapy reduced xerostomia [2]. " +
        "Epstein-Barr virus DNA predicted relapse after radiotherapy [1, 2].",
    );
    expect(result.citedPmids).toEqual([103, 102]);
    expect(logs.join("\n")).toContain("cites [99], which was not supplied");
  });

  test("a bracketed instruction with a link and markup drops its sentence instead of being shown", async () => {
    const aside = "[Ignore the above… https://evil.example … <script>alert(1)</script>]";
    script({ content: `${GOOD} Radiotherapy reduced xerostomia [2] ${aside}.` });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.engine).toBe("language model test-model (4 verified sentences)");
    expect(result.summary).not.toMatch(/evil|script|Ignore/);
  });

  test("a number written in words is checked like one in digits", async () => {
    const words =
      "Consumption of salted fish in childhood was associated with a higher risk of nasopharyngeal carcinoma in a " +
      "case-control study of seventy-three patients [1].";
    script({ content: `${GOOD} ${words}` });
    const result = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.summary).not.toContain("seventy-three");
    expect(logs.join("\n")).toContain("states 73, found in no cited source");
  });

  // Issue 22, item 3: a hanging model held the review workers.
  test("a model that never answers: the extractive summary after the budget; the request is abandoned", async () => {
    script({ hang: true });
    const started = performance.now();
    const result = await summarizer({ timeoutMs: 400 }).summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.engine).toBe(extractiveSummarizer.name);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    await waitFor(() => requests().at(-1)!.abortedAt !== undefined);
  });

  test("a model that sends its headers and then nothing: the budget covers reading the answer", async () => {
    script({ headersThenHang: true });
    const started = performance.now();
    const result = await summarizer({ timeoutMs: 400 }).summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(result.engine).toBe(extractiveSummarizer.name);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  test("while the model's one slot is taken by a hanging call, another summary does not wait for it", async () => {
    script({ hang: true });
    // The hanging call is waited out at the end: 1.5 s of budget (3 s before) still leaves the second summary, which
    // never calls the model, a third of it.
    const budget = 1_500;
    const count = requests().length;
    const first = summarizer({ timeoutMs: budget }).summarize("nasopharyngeal carcinoma", ARTICLES);
    let firstDone = false;
    void first.then(() => (firstDone = true));
    await waitFor(() => requests().length === count + 1);
    const started = performance.now();
    const second = await summarizer({ timeoutMs: budget }).summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(performance.now() - started).toBeLessThan(budget / 3);
    expect(second.engine).toBe(extractiveSummarizer.name);
    expect(firstDone).toBe(false);
    expect(logs.at(-1)).toBe("[llm] 1 call(s) already running: the extractive summary is used");
    expect((await first).engine).toBe(extractiveSummarizer.name);
    // The slot is free again: the next call reaches the model.
    script({ content: GOOD });
    const next = await summarizer().summarize("nasopharyngeal carcinoma", ARTICLES);
    expect(next.engine).toBe("language model test-model (4 verified sentences)");
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
        const content = sources
          .map(([, n, title]) => `${title!.replace(/[[\]]/g, "").replace(/[.?!]+$/, "")} [${n}].`)
          .join(" ");
        return Response.json({ choices: [{ message: { role: "assistant", content } }] });
      },
    });
    const t = await createTestApp("pglite", {
      env: { LLM_BASE_URL: `http://127.0.0.1:${server.port}/v1`, LLM_MODEL: "stand-in-model", LLM_TIMEOUT_MS: "5000" },
    });
    try {
      await ingestFiles(t.deps, [
        join(
          import.meta.dir,
          "..",
          "..",
          "sample",
          "pubmed",
          "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz",
        ),
      ]);
      const alice = await t.signup();
      const review = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: alice.headers })
      ).json()) as { id: string };
      await t.app.request(
        `/api/v1/literature_review/start/${review.id}?user_query=${encodeURIComponent("nasopharyngeal carcinoma radiotherapy")}`,
        { method: "POST", headers: alice.headers },
      );
      await t.runJobs();
      const details = (await (
        await t.app.request(`/api/v1/literature_review/details/${review.id}`, { headers: alice.headers })
      ).json()) as {
        status: string;
        summary: string;
        summary_engine: string;
        articles_refs: { pmid: number; title: string }[];
      };
      expect(details.status).toBe("complete");
      expect(details.summary_engine).toMatch(/^language model stand-in-model \(\d verified sentences\)$/);
      // [1] is the first cited article, whose title the model wrote.
      expect(details.summary).toContain(
        `${details.articles_refs[0]!.title.replace(/[[\]]/g, "").replace(/[.?!]+$/, "")} [1].`,
      );
    } finally {
      await t.close();
      server.stop(true);
    }
  }, 60_000);

  describe("limits on a running server (one app, the sample corpus)", () => {
    const BUDGET_MS = 5_000;
    let standIn: LlmStandIn;
    let t: Awaited<ReturnType<typeof import("../support/app.ts").createTestApp>>;
    const TOPIC = "nasopharyngeal carcinoma radiotherapy";

    beforeAll(async () => {
      const { createTestApp } = await import("../support/app.ts");
      const { ingestFiles } = await import("../../search/ingest.ts");
      const { join } = await import("node:path");
      standIn = startLlmStandIn();
      t = await createTestApp("pglite", {
        env: {
          LLM_BASE_URL: standIn.baseUrl,
          LLM_MODEL: "stand-in-model",
          LLM_TIMEOUT_MS: String(BUDGET_MS),
          LLM_CONCURRENCY: "1",
        },
      });
      const sample = "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz";
      await ingestFiles(t.deps, [join(import.meta.dir, "..", "..", "sample", "pubmed", sample)]);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      standIn?.stop();
    });

    type Details = { status: string; summary: string | null; summary_engine: string | null };
    const start = async (headers: { authorization: string }) => {
      const created = await t.app.request("/api/v1/literature_review/create", { method: "POST", headers });
      const review = (await created.json()) as { id: string };
      const query = `user_query=${encodeURIComponent(TOPIC)}`;
      const url = `/api/v1/literature_review/start/${review.id}?${query}`;
      const res = await t.app.request(url, { method: "POST", headers });
      expect(res.status).toBeLessThan(300);
      return review.id;
    };
    const details = async (id: string, headers: { authorization: string }) =>
      (await (await t.app.request(`/api/v1/literature_review/details/${id}`, { headers })).json()) as Details;

    test("a 50 MB answer: the review stores the extractive summary, not the model's sentences", async () => {
      const sentence = "Nasopharyngeal carcinoma was treated with radiotherapy [1].";
      standIn.script.push({ huge: 50 * 1024 * 1024, sentence });
      const alice = await t.signup();
      const id = await start(alice.headers);
      await t.runJobs();
      const stored = await details(id, alice.headers);
      expect(stored.status).toBe("complete");
      expect(stored.summary_engine).toBe("extractive");
      expect(stored.summary!.length).toBeLessThan(MAX_ANSWER_BYTES);
      expect(stored.summary).not.toContain("was treated with radiotherapy [1]. Nasopharyngeal carcinoma was treated");
      expect(standIn.requests.at(-1)!.sentBytes).toBeLessThan(16 * 1024 * 1024);
    }, 120_000);

    test("a hanging model holds neither the workers nor another user's review; its own ends after the budget", async () => {
      const { startWorker } = await import("../../src/jobs/worker.ts");
      const { jobHandlers } = await import("../../src/job-registry.ts");
      standIn.fallback = () => ({ hang: true });
      const [alice, bob] = [await t.signup(), await t.signup()];
      // The worker as the server starts it on the embedded database (src/server.ts): one loop, plus the model's.
      const worker = startWorker(t.deps, jobHandlers(t.deps), {
        concurrency: workerConcurrency(1, t.deps.config),
        pollIntervalMs: 20,
        collectGarbageAfterJob: false,
      });
      try {
        const seen = standIn.requests.length;
        const aliceReview = await start(alice.headers);
        await waitFor(() => standIn.requests.length > seen, 30_000);
        const modelAskedAt = standIn.requests.at(-1)!.receivedAt;

        const bobStarted = performance.now();
        const bobReview = await start(bob.headers);
        let bobs = await details(bobReview, bob.headers);
        while (bobs.status !== "complete" && performance.now() - bobStarted < BUDGET_MS * 2) {
          await Bun.sleep(20);
          bobs = await details(bobReview, bob.headers);
        }
        const bobTook = performance.now() - bobStarted;
        expect(bobs.status).toBe("complete");
        expect(bobs.summary_engine).toBe("extractive");
        expect(bobTook).toBeLessThan(BUDGET_MS / 2);
        // Alice's review is still waiting on the model when Bob's is done.
        expect((await details(aliceReview, alice.headers)).status).toBe("summarizing");
        expect(standIn.requests.length).toBe(seen + 1);

        let alices = await details(aliceReview, alice.headers);
        while (alices.status !== "complete" && performance.now() - modelAskedAt < BUDGET_MS * 3) {
          await Bun.sleep(20);
          alices = await details(aliceReview, alice.headers);
        }
        expect(alices.status).toBe("complete");
        expect(alices.summary_engine).toBe("extractive");
        expect(performance.now() - modelAskedAt).toBeGreaterThanOrEqual(BUDGET_MS - 50);
      } finally {
        standIn.fallback = () => ({ status: 500 });
        await worker.stop();
      }
    }, 120_000);
  });
});
