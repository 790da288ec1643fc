import { describe, expect, test } from "bun:test";
import fixtureJson from "../fixtures/nasopharyngeal-carcinoma.json";
import { normalizeWhitespace } from "../sentences.ts";
import { extractiveSummarizer, summarizeExtractive } from "./extractive.ts";
import { lightStem } from "./terms.ts";
import type { SummaryArticle } from "./types.ts";
import { findAbbreviations } from "../../../search/abbreviations.ts";
import issue21Records from "../fixtures/issue-21-records.json";
import { caseReportCap } from "./compose.ts";
import { MAX_SOURCES_PER_SENTENCE } from "./selection.ts";

// Real PubMed records, ranked for "risk factors for nasopharyngeal carcinoma"
// (see fixtures/README.md); two of them have no abstract.
const fixture = fixtureJson as SummaryArticle[];
const QUERY = "risk factors for nasopharyngeal carcinoma";

interface CitedSentence {
  /** The quoted sentence without its citation and final punctuation. */
  body: string;
  numbers: number[];
  block: "overview" | "bullet";
}

/** A case report the summary names: its title as quoted and its citation number. */
interface NamedCaseReport {
  title: string;
  number: number;
}

/** The "Case reports." line of a summary: the titles it names with their citation numbers. */
function parseCaseReports(summary: string): NamedCaseReport[] {
  const block = summary.split("\n\n").find((b) => b.startsWith("**Case reports.** "));
  if (block === undefined) return [];
  const m = /^\*\*Case reports\.\*\* (?:A case report describes|Case reports describe): (.+)\.$/u.exec(block);
  expect(m).not.toBeNull();
  return (m?.[1] ?? "").split("; ").map((item) => {
    const parts = /^(.+) \[(\d+)\]$/u.exec(item);
    expect(parts).not.toBeNull();
    return { title: parts?.[1] ?? "", number: Number(parts?.[2]) };
  });
}

/** Reads a summary the way the review page does: sentences with their bracketed citation lists. */
function parseSummary(summary: string): CitedSentence[] {
  const out: CitedSentence[] = [];
  const take = (text: string, block: CitedSentence["block"]) => {
    const re = /(.+?) \[(\d+(?:, \d+)*)\][.!?](?= |$)/gu;
    let consumed = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      out.push({ body: (m[1] ?? "").trim(), numbers: (m[2] ?? "").split(", ").map(Number), block });
      consumed = re.lastIndex;
    }
    // Nothing may be left uncited at the end of a block.
    expect(text.slice(consumed).trim()).toBe("");
  };
  for (const block of summary.split("\n\n")) {
    if (block.startsWith("**Overview.** ")) take(block.slice("**Overview.** ".length), "overview");
    else if (block.startsWith("**Case reports.** "))
      continue; // titles, not sentences: see parseCaseReports
    else if (block.startsWith("**Key findings**\n")) {
      for (const line of block.split("\n").slice(1)) {
        expect(line).toStartWith("- ");
        take(line.slice(2), "bullet");
      }
    } else throw new Error(`unexpected block: ${block.slice(0, 60)}`);
  }
  return out;
}

function abstractOf(pmid: number, articles: readonly SummaryArticle[]): string {
  const a = articles.find((x) => x.pmid === pmid);
  return normalizeWhitespace(a?.abstract ?? "");
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9]+/gu) ?? []);
}

/** Citation numbers in the order a reader meets them. */
function numbersInOrder(summary: string): number[] {
  return [...summary.matchAll(/\[(\d+(?:, \d+)*)\]/gu)].flatMap((m) => (m[1] ?? "").split(", ").map(Number));
}

describe("summarizeExtractive on real abstracts", () => {
  const result = summarizeExtractive(QUERY, fixture);
  const summary = result.summary ?? "";
  const sentences = parseSummary(summary);

  test("produces an overview and key-finding bullets", () => {
    expect(result.summary).not.toBeNull();
    expect(summary).toStartWith("**Overview.** ");
    expect(summary).toContain("\n\n**Key findings**\n- ");
    expect(sentences.length).toBeGreaterThanOrEqual(8);
    expect(sentences.length).toBeLessThanOrEqual(12);
  });

  test("every sentence is quoted verbatim from the abstract its first citation points to", () => {
    for (const s of sentences) {
      const pmid = result.citedPmids[(s.numbers[0] ?? 0) - 1];
      expect(pmid).toBeDefined();
      expect(abstractOf(pmid as number, fixture)).toContain(s.body);
    }
  });

  test("every other citation on a sentence points to an abstract that states it almost word for word", () => {
    for (const s of sentences) {
      for (const n of s.numbers.slice(1)) {
        const abstract = abstractOf(result.citedPmids[n - 1] as number, fixture);
        const sentenceWords = words(s.body);
        const shared = [...sentenceWords].filter((w) => words(abstract).has(w)).length;
        expect(shared / sentenceWords.size).toBeGreaterThan(0.7);
      }
    }
  });

  test("numbers citations by first appearance, without gaps or duplicates", () => {
    const order = numbersInOrder(summary);
    let highest = 0;
    for (const n of order) {
      expect(n).toBeLessThanOrEqual(highest + 1);
      highest = Math.max(highest, n);
    }
    expect(highest).toBe(result.citedPmids.length);
    expect(new Set(order).size).toBe(result.citedPmids.length);
    expect(new Set(result.citedPmids).size).toBe(result.citedPmids.length);
    for (const pmid of result.citedPmids) expect(fixture.some((a) => a.pmid === pmid)).toBe(true);
  });

  test("never cites an article that has no abstract", () => {
    const withoutAbstract = fixture.filter((a) => !a.abstract).map((a) => a.pmid);
    expect(withoutAbstract.length).toBeGreaterThan(0);
    for (const pmid of withoutAbstract) expect(result.citedPmids).not.toContain(pmid);
  });

  test("covers several articles, at most two sentences from each", () => {
    expect(result.citedPmids.length).toBeGreaterThanOrEqual(5);
    const perArticle = new Map<number, number>();
    for (const s of sentences) {
      const first = s.numbers[0] as number;
      perArticle.set(first, (perArticle.get(first) ?? 0) + 1);
    }
    for (const count of perArticle.values()) expect(count).toBeLessThanOrEqual(2);
  });

  test("selects sentences about the query's topic", () => {
    // NPC is how these abstracts abbreviate nasopharyngeal carcinoma.
    const topic = /\b(?:risk|factors?|nasopharyn\w*|NPC|carcinoma)\b/iu;
    for (const s of sentences.filter((x) => x.block === "overview")) expect(s.body).toMatch(topic);
    const onTopic = sentences.filter((s) => topic.test(s.body)).length;
    expect(onTopic / sentences.length).toBeGreaterThanOrEqual(0.8);
    // A finding, not a study design: no sentence merely states what was done.
    for (const s of sentences)
      expect(s.body).not.toMatch(/^(?:To (?:evaluate|explore|investigate)|We (?:interviewed|recruited))\b/u);
  });

  test("key findings are findings: from a structured abstract, only RESULTS and CONCLUSIONS sentences", () => {
    let labelled = 0;
    for (const s of sentences) {
      const source = fixture.find((a) => a.pmid === result.citedPmids[(s.numbers[0] as number) - 1]);
      const sections = source?.abstract_sections ?? [];
      const section = sections.find((x) => x.nlm_category !== null && normalizeWhitespace(x.text).includes(s.body));
      if (section === undefined) continue; // unstructured: no label to check against
      labelled++;
      expect(["RESULTS", "CONCLUSIONS"]).toContain(section.nlm_category as string);
    }
    expect(labelled).toBeGreaterThan(0);
  });

  test("never quotes a case report as a finding; with reviews on the topic, case reports stay within 0.10 of citations", () => {
    const named = parseCaseReports(summary);
    // The fixture holds a meta-analysis and reviews: 7 cited findings leave no room for a case report (1 of 8 > 0.10).
    expect(named.length).toBeLessThanOrEqual(Math.floor(0.1 * result.citedPmids.length));
    for (const pmid of result.citedPmids) {
      const source = fixture.find((a) => a.pmid === pmid);
      if (!named.some((c) => result.citedPmids[c.number - 1] === pmid))
        expect(source?.publication_types).not.toContain("Case Reports");
    }
    for (const c of named) {
      const source = fixture.find((a) => a.pmid === result.citedPmids[c.number - 1]);
      expect(source?.publication_types).toContain("Case Reports");
      // Verbatim, without the brackets PubMed puts around a translated title.
      expect((source?.title ?? "").replace(/^\[/u, "")).toStartWith(c.title);
      expect(sentences.some((s) => s.numbers.includes(c.number))).toBe(false);
    }
  });

  test("puts every citation before the sentence's final period", () => {
    const lines = summary.split("\n").filter((l) => l.startsWith("- "));
    for (const line of lines) expect(line).toMatch(/ \[\d+(?:, \d+)*\][.!?]$/u);
    expect(summary).not.toMatch(/\.\s\[\d/u);
  });

  test("is deterministic", () => {
    expect(summarizeExtractive(QUERY, fixture)).toEqual(result);
  });

  test("follows the query: a narrower topic gives sentences about it", () => {
    const narrow = summarizeExtractive("salted fish", fixture);
    const parsed = parseSummary(narrow.summary ?? "");
    expect(parsed.length).toBeGreaterThan(3);
    const mentions = parsed.filter((s) => /salted fish/iu.test(s.body)).length;
    expect(mentions / parsed.length).toBeGreaterThanOrEqual(0.6);
    expect(narrow.summary).not.toBe(result.summary);
  });
});

/** A small structured article for targeted cases. */
function article(
  pmid: number,
  sections: Array<[string, string | null, string]>,
  extra: Partial<SummaryArticle> = {},
): SummaryArticle {
  const abstract_sections = sections.map(([label, nlm_category, text]) => ({ label, nlm_category, text }));
  return {
    pmid,
    title: `Article ${pmid}`,
    abstract: abstract_sections.map((s) => s.text).join(" "),
    abstract_sections,
    publication_year: 2020,
    publication_types: ["Journal Article"],
    ...extra,
  };
}

describe("summarizeExtractive edge cases", () => {
  test("no articles, or none with text, gives no summary", () => {
    expect(summarizeExtractive(QUERY, [])).toEqual({ summary: null, citedPmids: [] });
    const titlesOnly = fixture.filter((a) => !a.abstract);
    expect(summarizeExtractive(QUERY, titlesOnly)).toEqual({ summary: null, citedPmids: [] });
    const blank: SummaryArticle = {
      pmid: 1,
      title: "T",
      abstract: "  ",
      abstract_sections: [],
      publication_year: null,
      publication_types: [],
    };
    expect(summarizeExtractive(QUERY, [blank])).toEqual({ summary: null, citedPmids: [] });
  });

  test("the asynchronous interface gives the same result", async () => {
    expect(await extractiveSummarizer.summarize(QUERY, fixture)).toEqual(summarizeExtractive(QUERY, fixture));
  });

  test("prefers a conclusion over a methods sentence that mentions the same words", () => {
    const a = article(11, [
      [
        "METHODS",
        "METHODS",
        "We randomised 240 children with asthma to inhaled corticosteroids or placebo for one year.",
      ],
      [
        "CONCLUSIONS",
        "CONCLUSIONS",
        "Inhaled corticosteroids halved severe asthma exacerbations in children over one year.",
      ],
    ]);
    const r = summarizeExtractive("inhaled corticosteroids for asthma in children", [a], { maxSentences: 1 });
    expect(r.summary).toContain("Inhaled corticosteroids halved severe asthma exacerbations");
    expect(r.summary).not.toContain("We randomised");
    expect(r.citedPmids).toEqual([11]);
  });

  test("a statement made by two articles appears once and cites both", () => {
    const shared =
      "Daily aspirin reduced the incidence of colorectal adenoma recurrence in adults with previous adenomas.";
    const a = article(21, [
      ["RESULTS", "RESULTS", "Adenomas recurred in 17% of the aspirin group and 27% of the placebo group."],
      ["CONCLUSIONS", "CONCLUSIONS", shared],
    ]);
    const b = article(22, [
      ["BACKGROUND", "BACKGROUND", "Colorectal adenomas are precursors of most colorectal cancers."],
      ["CONCLUSIONS", "CONCLUSIONS", shared],
    ]);
    const c = article(23, [
      [
        "CONCLUSIONS",
        "CONCLUSIONS",
        "Aspirin use was associated with gastrointestinal bleeding in older adults with adenomas.",
      ],
    ]);
    const r = summarizeExtractive("aspirin colorectal adenoma", [a, b, c]);
    const text = r.summary ?? "";
    expect(text.split(shared.slice(0, -1)).length - 1).toBe(1);
    const parsed = parseSummary(text);
    const merged = parsed.find((s) => shared.startsWith(s.body));
    expect(merged?.numbers.map((n) => r.citedPmids[n - 1]).sort()).toEqual([21, 22]);
  });

  test("finds sentences that use the abbreviation the abstract defines", () => {
    const a = article(31, [
      [
        "BACKGROUND",
        "BACKGROUND",
        "Chronic obstructive pulmonary disease (COPD) is a leading cause of death worldwide.",
      ],
      ["RESULTS", "RESULTS", "Pulmonary rehabilitation improved walking distance by 54 metres in patients with COPD."],
      ["RESULTS", "RESULTS", "Dyspnoea scores fell in the intervention group at twelve weeks."],
    ]);
    const r = summarizeExtractive("chronic obstructive pulmonary disease rehabilitation", [a], { maxSentences: 1 });
    expect(r.summary).toContain(
      "Pulmonary rehabilitation improved walking distance by 54 metres in patients with COPD [1].",
    );
  });

  test("an abbreviated query finds abstracts that spell the term out", () => {
    const r = summarizeExtractive("NPC", fixture, { maxSentences: 3 });
    expect(r.summary).not.toBeNull();
    for (const s of parseSummary(r.summary ?? "")) expect(s.body).toMatch(/NPC|nasopharyngeal/iu);
  });

  test("still summarises the retrieved articles when no sentence shares a word with the query", () => {
    const r = summarizeExtractive("zzzz qqqq", fixture.slice(0, 6));
    expect(r.summary).not.toBeNull();
    expect(r.citedPmids.length).toBeGreaterThan(0);
  });

  test("prefers a self-contained sentence over one that leans on the sentence before it", () => {
    const a = article(61, [
      [
        "RESULTS",
        "RESULTS",
        "However, salt reduction lowered systolic blood pressure in older adults with hypertension.",
      ],
    ]);
    const b = article(62, [
      [
        "RESULTS",
        "RESULTS",
        "Salt reduction lowered systolic blood pressure by 5 mmHg in older adults with hypertension.",
      ],
    ]);
    const r = summarizeExtractive("salt reduction blood pressure", [a, b], { maxSentences: 1 });
    expect(r.citedPmids).toEqual([62]);
  });

  test("leaves out fragments that are only statistics", () => {
    const a = article(71, [
      ["RESULTS", "RESULTS", "OR 2.1 (95% CI 1.2-3.4), P = 0.01; RR 1.5 (1.1-2.0), P = 0.03; HR 1.4 (1.0-1.9)."],
      ["CONCLUSIONS", "CONCLUSIONS", "Night-shift work was associated with a higher risk of breast cancer in nurses."],
    ]);
    const r = summarizeExtractive("night-shift work breast cancer risk", [a]);
    expect(r.summary).not.toContain("OR 2.1");
    expect(r.summary).toContain("Night-shift work was associated with a higher risk of breast cancer in nurses [1].");
  });

  test("skips sentences whose own bracketed numbers would look like citations", () => {
    const a = article(41, [
      ["RESULTS", "RESULTS", "Statin therapy lowered LDL cholesterol in every trial of the pooled analysis [12]."],
      [
        "CONCLUSIONS",
        "CONCLUSIONS",
        "Statin therapy lowers LDL cholesterol and cardiovascular events in adults at risk.",
      ],
    ]);
    const r = summarizeExtractive("statin therapy LDL cholesterol", [a]);
    expect(r.summary).not.toContain("[12]");
    expect(r.summary).toContain(
      "Statin therapy lowers LDL cholesterol and cardiovascular events in adults at risk [1].",
    );
  });

  test("reads inline headings of an unstructured abstract without quoting them", () => {
    const a: SummaryArticle = {
      pmid: 51,
      title: "Vitamin D and falls",
      abstract:
        "BACKGROUND: Falls are common in older adults. METHODS: We pooled eight randomised trials of vitamin D supplementation. " +
        "RESULTS: Vitamin D supplementation reduced the risk of falls by 19% in older adults. CONCLUSIONS: Vitamin D supplementation prevents falls in older adults.",
      abstract_sections: [],
      publication_year: 2009,
      publication_types: ["Meta-Analysis"],
    };
    const r = summarizeExtractive("vitamin D supplementation falls", [a]);
    expect(r.summary).not.toMatch(/RESULTS:|CONCLUSIONS:|METHODS:/u);
    expect(r.summary).toContain("Vitamin D supplementation prevents falls in older adults [1].");
  });

  test("a PMID listed twice is one source", () => {
    const twice = [fixture[0] as SummaryArticle, fixture[0] as SummaryArticle, fixture[1] as SummaryArticle];
    const r = summarizeExtractive(QUERY, twice);
    expect(new Set(r.citedPmids).size).toBe(r.citedPmids.length);
    expect(numbersInOrder(r.summary ?? "").every((n) => n <= r.citedPmids.length)).toBe(true);
  });
});

describe("text normalisation", () => {
  test("conflates the inflections a query and an abstract use for the same idea", () => {
    expect(lightStem("smoking")).toBe(lightStem("smoke"));
    expect(lightStem("smoked")).toBe(lightStem("smokes"));
    expect(lightStem("dietary")).toBe(lightStem("diet"));
    expect(lightStem("associated")).toBe(lightStem("association"));
    expect(lightStem("factors")).toBe(lightStem("factor"));
    expect(lightStem("therapies")).toBe(lightStem("therapy"));
    expect(lightStem("randomised")).toBe(lightStem("randomized"));
    expect(lightStem("controlled")).toBe(lightStem("control"));
    expect(lightStem("significance")).toBe(lightStem("significant"));
    expect(lightStem("analysis")).toBe("analysis");
  });

  test("finds abbreviation definitions in abstract text", () => {
    const found = findAbbreviations(
      "Nasopharyngeal carcinoma (NPC) is rare. The odds ratio (OR) and 95% confidence interval (CI) were computed. Values (n = 12) were low.",
    );
    expect(found.get("NPC")).toBe("Nasopharyngeal carcinoma");
    expect(found.get("OR")).toBe("odds ratio");
    expect(found.get("CI")).toBe("confidence interval");
    expect(found.has("n")).toBe(false);
  });
});

describe("evidence first (issue 13)", () => {
  const Q = "antibiotic treatment of vertebral osteomyelitis";
  const trial = article(
    31,
    [
      [
        "METHODS",
        "METHODS",
        "We randomly assigned 359 adults with vertebral osteomyelitis to 6 or 12 weeks of antibiotic treatment.",
      ],
      [
        "RESULTS",
        "RESULTS",
        "Six weeks of antibiotic treatment was non-inferior to 12 weeks for cure of vertebral osteomyelitis at one year (90.9% vs 90.9%).",
      ],
    ],
    {
      title: "Antibiotic treatment for 6 weeks versus 12 weeks in vertebral osteomyelitis",
      publication_types: ["Journal Article", "Randomized Controlled Trial"],
    },
  );
  const cohort = article(
    32,
    [
      [
        "RESULTS",
        "RESULTS",
        "Oral antibiotic treatment of vertebral osteomyelitis after two weeks of intravenous therapy was associated with similar relapse rates.",
      ],
    ],
    {
      title: "Oral step-down antibiotic treatment of vertebral osteomyelitis",
      publication_types: ["Journal Article", "Observational Study"],
      mesh_terms: ["Humans", "Cohort Studies"],
    },
  );
  const caseReport = article(
    33,
    [
      [
        "",
        null,
        "In this report the first case of R. equi infection manifesting as vertebral osteomyelitis is described.",
      ],
      [
        "",
        null,
        "The patient responded well to antibiotic treatment and surgical drainage of the vertebral osteomyelitis.",
      ],
      [
        "",
        null,
        "A 54-year-old man presented with back pain from vertebral osteomyelitis and received antibiotic treatment for 8 weeks.",
      ],
    ],
    {
      title: "Rhodococcus equi vertebral osteomyelitis: a case report.",
      publication_types: ["Journal Article", "Case Reports"],
    },
  );

  test("leads the key findings with the strongest design and names case reports as such", () => {
    const r = summarizeExtractive(Q, [cohort, caseReport, trial], { maxSentences: 4 });
    const text = r.summary ?? "";
    expect(text).not.toContain("In this report the first case");
    expect(text).not.toContain("The patient responded well");
    expect(text).not.toContain("A 54-year-old man presented"); // a case report is named, not quoted as a finding
    // Both studies are cited; the trial's finding comes first although the cohort is ranked higher.
    const trialAt = text.indexOf("Six weeks of antibiotic treatment");
    const cohortAt = text.indexOf("Oral antibiotic treatment");
    expect(trialAt).toBeGreaterThanOrEqual(0);
    expect(cohortAt).toBeGreaterThan(trialAt);
    // Two studies cited, so a case report would be half of the citations: it is left out.
    expect(r.citedPmids).not.toContain(33);
  });

  test("with only case reports on the topic, names them by title in one line", () => {
    const other = { ...caseReport, pmid: 34, title: "[Vertebral osteomyelitis after antibiotic treatment failure]." };
    const r = summarizeExtractive(Q, [caseReport, other]);
    expect(r.summary).toBe(
      "**Case reports.** Case reports describe: Rhodococcus equi vertebral osteomyelitis: a case report [1]; Vertebral osteomyelitis after antibiotic treatment failure [2].",
    );
    expect(r.citedPmids).toEqual([33, 34]);
  });

  test("drops sentences that lean on context, keeps one that names its own subject", () => {
    const a = article(41, [
      [
        "RESULTS",
        "RESULTS",
        "These findings confirm that statins lowered LDL cholesterol by 30% in adults with diabetes.",
      ],
      [
        "RESULTS",
        "RESULTS",
        "In this cohort of 1,200 adults with diabetes, statins lowered LDL cholesterol by 38% within a year.",
      ],
      ["CONCLUSIONS", "CONCLUSIONS", "It lowered LDL cholesterol in adults with diabetes more than diet alone."],
    ]);
    const r = summarizeExtractive("statins LDL cholesterol diabetes", [a]);
    expect(r.summary).toContain("In this cohort of 1,200 adults with diabetes");
    expect(r.summary).not.toContain("These findings confirm");
    expect(r.summary).not.toContain("It lowered");
  });

  test("never cites a retracted article", () => {
    const retracted = { ...trial, pmid: 35, retraction_notice_pmid: 99 };
    const flagged = { ...cohort, pmid: 36, publication_types: ["Journal Article", "Retracted Publication"] };
    const r = summarizeExtractive(Q, [retracted, flagged, trial]);
    expect(r.citedPmids).toEqual([31]);
  });

  test("does not cite an article that only touches the topic", () => {
    const wastewater = article(
      37,
      [
        [
          "RESULTS",
          "RESULTS",
          "Antibiotic resistance genes persisted in the effluent of all eight plants studied over two years.",
        ],
      ],
      { title: "Resistance genes in municipal wastewater plants" },
    );
    const r = summarizeExtractive("antibiotic treatment of osteomyelitis", [wastewater, trial, cohort]);
    expect(r.citedPmids).not.toContain(37);
    expect(r.citedPmids.length).toBeGreaterThan(0);
  });
});

describe("topic fidelity and sources (issue 21)", () => {
  const [aisReview, childrenOsteomyelitis] = issue21Records as SummaryArticle[] as [SummaryArticle, SummaryArticle];
  const DIAGNOSIS = "vertebral osteomyelitis diagnosis";
  const imaging = article(
    51,
    [
      [
        "RESULTS",
        "RESULTS",
        "MRI had a sensitivity of 96% and a specificity of 92% for the diagnosis of vertebral osteomyelitis.",
      ],
      [
        "CONCLUSIONS",
        "CONCLUSIONS",
        "Magnetic resonance imaging is essential to the diagnostic work-up of suspected vertebral osteomyelitis.",
      ],
    ],
    { title: "Imaging in the diagnosis of vertebral osteomyelitis", publication_types: ["Journal Article", "Review"] },
  );
  const treatment = article(
    52,
    [
      [
        "RESULTS",
        "RESULTS",
        "Six weeks of antibiotic treatment cured 91% of adults with vertebral osteomyelitis after diagnosis.",
      ],
    ],
    {
      title: "Vertebral osteomyelitis: diagnosis and antibiotic treatment",
      publication_types: ["Journal Article", "Randomized Controlled Trial"],
    },
  );

  test("an article that reaches the topic only through an excluded synonym lends it no finding (PMID 20488146)", () => {
    // Ranked first, as the search ranked it: "osteomyelitis", "diagnosis" and "spinal" (for "vertebral") all occur.
    const r = summarizeExtractive(DIAGNOSIS, [childrenOsteomyelitis, imaging, treatment]);
    expect(r.citedPmids).not.toContain(20488146);
    expect(r.citedPmids.length).toBeGreaterThan(0);
    // The same record without its exclusion sentence is cited: the exclusion is what keeps it out.
    const sections = childrenOsteomyelitis.abstract_sections.map((s) => ({
      ...s,
      text: s.text.replace(/Subacute osteomyelitis, [^.]+ were all excluded\./u, ""),
    }));
    const title = `${childrenOsteomyelitis.title} Spinal infections included.`;
    const affirmed = { ...childrenOsteomyelitis, title, abstract_sections: sections };
    expect(summarizeExtractive(DIAGNOSIS, [affirmed, imaging, treatment]).citedPmids).toContain(20488146);
  });

  test("for a diagnosis topic the overview opens with a diagnostic finding, though trials are ranked first", () => {
    const trials = [53, 54, 55].map((pmid) =>
      article(
        pmid,
        [
          [
            "RESULTS",
            "RESULTS",
            `Relapse of vertebral osteomyelitis occurred in ${pmid - 45}% within a year of diagnosis.`,
          ],
          [
            "CONCLUSIONS",
            "CONCLUSIONS",
            `Oral step-down therapy after diagnosis of vertebral osteomyelitis was safe (${pmid}).`,
          ],
        ],
        {
          title: `Vertebral osteomyelitis after diagnosis: trial ${pmid}`,
          publication_types: ["Randomized Controlled Trial"],
        },
      ),
    );
    const r = summarizeExtractive(DIAGNOSIS, [treatment, ...trials, imaging]);
    const parsed = parseSummary(r.summary ?? "");
    expect(parsed.filter((s) => s.block === "bullet").length).toBeGreaterThan(0);
    const first = parsed[0];
    expect(first?.block).toBe("overview");
    expect(first?.body).toMatch(/^(?:MRI had a sensitivity|Magnetic resonance imaging is essential)/u);
    // For a treatment topic the trial's outcome opens it.
    const t = summarizeExtractive("vertebral osteomyelitis antibiotic treatment", [treatment, imaging]);
    expect(parseSummary(t.summary ?? "")[0]?.body).toStartWith("Six weeks of antibiotic treatment cured");
  });

  test("no stray punctuation where a section label was: PMID 17728675's ': Weak evidence …' is quoted bare", () => {
    const topic = "quality of life after spinal deformity correction for adolescent idiopathic scoliosis";
    const r = summarizeExtractive(topic, [aisReview]);
    const text = r.summary ?? "";
    expect(text).toContain("Weak evidence (Level IV) exists in the literature");
    expect(text).not.toMatch(/(?:^|[\s\]])[:;,](?=\s)/u);
    for (const s of parseSummary(text)) expect(s.body).toMatch(/^[\p{Lu}\p{N}]/u);
  });

  test("no stray enumeration marker: PMID 1507908's numbered conclusions are quoted without '6)'", () => {
    const conclusions =
      "1) In myositis by Staphylococcus aureus the percentage of primary pyomyositis is considerable. 2) In " +
      "secondary pyomyositis the most frequent neighboring processes were sacroiliitis and spondylitis. 3) " +
      "intravenous drug addiction was the most frequent predisposing factor. 4) The time of clinical evolution is " +
      "variable although less in case of primary pyomyositis. 5) The performance of hemocultures was found to be " +
      "greater than described and even greater in primary pyomyositis. 6) Abscess cultures and CT are the most " +
      "efficient microbiological and imaging techniques in the early diagnosis of myositis by S. aureus.";
    const title = "[Pyomyositis caused by Staphylococcus aureus].";
    const pyomyositis = article(1507908, [["CONCLUSIONS", "CONCLUSIONS", conclusions]], { title });
    const r = summarizeExtractive("diagnosis of pyomyositis by Staphylococcus aureus", [pyomyositis]);
    const parsed = parseSummary(r.summary ?? "");
    expect(parsed.map((s) => s.body)).toContain(
      "Abscess cultures and CT are the most efficient microbiological and imaging techniques in the early diagnosis " +
        "of myositis by S. aureus",
    );
    for (const s of parsed) expect(s.body).not.toMatch(/^\(?\d\)/u);
  });

  test(`no sentence cites more than ${MAX_SOURCES_PER_SENTENCE} articles, however many state it`, () => {
    const shared = "Daily aspirin reduced the incidence of colorectal adenoma recurrence in adults with adenomas.";
    const many = Array.from({ length: 8 }, (_, i) =>
      article(60 + i, [["CONCLUSIONS", "CONCLUSIONS", shared]], { title: `Aspirin and adenoma ${i}` }),
    );
    const r = summarizeExtractive("aspirin colorectal adenoma", many);
    const parsed = parseSummary(r.summary ?? "");
    expect(parsed).toHaveLength(1);
    expect(parsed[0]?.numbers).toEqual([1, 2, 3]);
    expect(r.citedPmids).toEqual([60, 61, 62]);
  });

  test("case reports stay at most 0.10 of all citations when stronger designs are on the topic", () => {
    expect([8, 9, 17, 18, 27].map((n) => caseReportCap(n))).toEqual([0, 1, 1, 2, 3]);
    const cases = Array.from({ length: 3 }, (_, i) =>
      article(
        70 + i,
        [["", null, `A 60-year-old man had vertebral osteomyelitis ${i} cured by antibiotic treatment.`]],
        {
          publication_types: ["Journal Article", "Case Reports"],
        },
      ),
    );
    // Only the trial and the review are cited for their findings: 2 citations leave no room for a case report.
    const r = summarizeExtractive("antibiotic treatment of vertebral osteomyelitis", [...cases, treatment, imaging]);
    expect(r.citedPmids.some((p) => p >= 70 && p < 73)).toBe(false);
    // Without any stronger design on the topic, up to three are named.
    const alone = summarizeExtractive("antibiotic treatment of vertebral osteomyelitis", cases);
    expect(alone.citedPmids).toEqual([70, 71, 72]);
  });

  test("an abstract that reports one case is named, not quoted, even when its record names no design", () => {
    const unlabelled = article(80, [
      ["", null, "We report a case of vertebral osteomyelitis caused by Rhodococcus equi in a 54-year-old man."],
      ["", null, "Antibiotic treatment for eight weeks cured the vertebral osteomyelitis without surgery."],
    ]);
    const r = summarizeExtractive("antibiotic treatment of vertebral osteomyelitis", [unlabelled]);
    expect(r.summary).toStartWith("**Case reports.** A case report describes: Article 80 [1].");
  });
});
