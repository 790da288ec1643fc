/**
 * "Findings only" (issue 21): the summary quotes results and conclusions, never background, aims, methods,
 * recruitment or calls for research, whether the abstract is structured or not. Real sample abstracts.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parsePubmedFile, type ParsedArticle } from "../../../search/pubmed/parser.ts";
import { classifySection, splitSentences } from "../sentences.ts";
import { sentenceRole } from "../summary/candidates.ts";
import { summarizeExtractive } from "../summary/extractive.ts";
import type { SummaryArticle } from "../summary/types.ts";
import { classifySentenceRoles } from "./classifier.ts";

const SAMPLE = join(import.meta.dir, "..", "..", "..", "sample", "pubmed");
// 20737561 and 15641027: structured (BACKGROUND/METHODS/RESULTS/CONCLUSIONS); 7087893: unstructured; all three are
// about nasopharyngeal carcinoma in children. 31418827: an unstructured review abstract with no findings at all.
const PMIDS = [20737561, 15641027, 7087893, 31418827];
const articles = new Map<number, SummaryArticle>();

beforeAll(async () => {
  for (const file of readdirSync(SAMPLE)
    .filter((f) => f.endsWith(".xml.gz"))
    .sort()) {
    for await (const e of parsePubmedFile(join(SAMPLE, file), { readInWorker: false })) {
      if (e.type !== "article" || !PMIDS.includes(e.article.pmid) || articles.has(e.article.pmid)) continue;
      articles.set(e.article.pmid, toSummary(e.article));
    }
  }
});

function toSummary(a: ParsedArticle): SummaryArticle {
  return {
    pmid: a.pmid,
    title: a.title,
    abstract: a.abstract,
    abstract_sections: a.abstract_sections,
    publication_year: a.publication_year,
    publication_types: a.publication_types,
    mesh_terms: a.mesh_terms,
  };
}

function article(pmid: number): SummaryArticle {
  const a = articles.get(pmid);
  if (a === undefined) throw new Error(`PMID ${pmid} is not in the sample`);
  return a;
}

/** The same article with its section labels removed: one plain, unstructured abstract. */
function unlabelled(a: SummaryArticle): SummaryArticle {
  return { ...a, abstract: a.abstract_sections.map((s) => s.text).join(" ") || a.abstract, abstract_sections: [] };
}

/** The abstract's sentences that the summary quotes (matched without their final punctuation). */
function quoted(summary: string, a: SummaryArticle): string[] {
  const text = a.abstract_sections.length > 0 ? a.abstract_sections.map((s) => s.text).join(" ") : (a.abstract ?? "");
  return splitSentences(text).filter((s) => summary.includes(s.replace(/[.!?]$/u, "")));
}

const NOT_FINDINGS = [
  "All patients received radiotherapy (RT) to the primary tumor",
  "Future trials should investigate equivalent efficacy",
  "We have retrospectively evaluated a series of 27 consecutive children",
  "Fifty-nine patients (median age, 14.1 years) were identified",
];
const QUERY = "nasopharyngeal carcinoma in children radiotherapy chemotherapy";

describe("key findings and the overview quote only findings", () => {
  test("structured abstracts: no recruitment, procedure or call for research is quoted", () => {
    const input = [article(20737561), article(15641027), article(7087893)];
    const { summary } = summarizeExtractive(QUERY, input);
    expect(summary).not.toBeNull();
    for (const s of NOT_FINDINGS) expect(summary).not.toContain(s);
    // Every sentence quoted from a structured abstract sits in its RESULTS or CONCLUSIONS section.
    for (const a of input.slice(0, 2)) {
      for (const q of quoted(summary as string, a)) {
        const section = a.abstract_sections.find((x) => x.text.includes(q));
        const kind = classifySection(section?.label ?? "", section?.nlm_category ?? null);
        expect(["RESULTS", "CONCLUSIONS"]).toContain(kind);
      }
    }
  });

  test("the same abstracts unlabelled: the classifier keeps methods and calls for research out", () => {
    const input = [article(20737561), article(15641027), article(7087893)].map(unlabelled);
    const { summary } = summarizeExtractive(QUERY, input);
    expect(summary).not.toBeNull();
    for (const s of NOT_FINDINGS) expect(summary).not.toContain(s);
    let count = 0;
    for (const a of input) {
      const sentences = splitSentences(a.abstract ?? "");
      const roles = classifySentenceRoles(sentences);
      for (const q of quoted(summary as string, a)) {
        count++;
        expect(["RESULTS", "CONCLUSIONS"]).toContain(roles[sentences.indexOf(q)] as string);
      }
    }
    expect(count).toBeGreaterThanOrEqual(3);
  });

  test("no finding on the topic: no summary rather than background or a review's statement of scope", () => {
    const review = article(31418827); // "In this review, we describe …", "We also discuss the main obstacles …"
    expect(review.abstract_sections.every((s) => (s.nlm_category ?? "") === "")).toBe(true);
    const result = summarizeExtractive("regulatory T cells graft-versus-host disease", [review]);
    expect(result).toEqual({ summary: null, citedPmids: [] });
  });

  test("few findings make a short summary, not one padded with non-findings", () => {
    const review = article(31418827);
    const series = unlabelled(article(7087893));
    const { summary, citedPmids } = summarizeExtractive("nasopharyngeal carcinoma children", [review, series]);
    expect(citedPmids).toEqual([7087893]);
    for (const s of NOT_FINDINGS) expect(summary).not.toContain(s);
    expect(summary).not.toContain("In this review");
  });
});

describe("sentenceRole: cues override a role only where the words leave no doubt", () => {
  test("a procedure the classifier takes for a result is a method (PMID 7087893)", () => {
    const given = "Adjuvant cyclophosphamide (CPM) was administered to a total of 11 children.";
    const r = sentenceRole("UNLABELLED", given, "RESULTS");
    expect(r).toMatchObject({ kind: "METHODS", finding: false });
  });

  test("recruitment and treatment given, filed under RESULTS, are methods (PMID 20737561)", () => {
    const received =
      "All patients received radiotherapy (RT) to the primary tumor, and most received cervical RT (98.3%) and " +
      "chemotherapy (93.2%).";
    expect(sentenceRole("RESULTS", received, null)).toMatchObject({ kind: "METHODS", finding: false });
    const identified = "Fifty-nine patients (median age, 14.1 years) were identified.";
    expect(sentenceRole("RESULTS", identified, null)).toMatchObject({ kind: "METHODS", finding: false });
  });

  test("cases presented are a method, even when they say the cases were treated successfully (PMID 11075599)", () => {
    const cases =
      "We report two cases of ilio-psoas abscess in 15- and 21-day-old infants successfully treated by US-guided " +
      "percutaneous drainage as a supplement to antibiotic therapy.";
    expect(sentenceRole("UNLABELLED", cases, "RESULTS")).toMatchObject({ kind: "METHODS", finding: false });
    const improved = "Clinical improvement was observed within 24-48 h of drainage.";
    expect(sentenceRole("UNLABELLED", improved, "RESULTS")).toMatchObject({ kind: "RESULTS", finding: true });
  });

  test("an aim introduced by 'Here' is an aim (PMID 25371213)", () => {
    const aim = "Here we sought to determine whether antibacterial autophagy is activated in BBB endothelium.";
    expect(sentenceRole("UNLABELLED", aim, "BACKGROUND")).toMatchObject({ kind: "OBJECTIVE", finding: false });
  });

  test("a hypothesis after 'therefore' is an aim (PMID 27236187)", () => {
    const hypothesis = "We therefore hypothesized that risk variants should reduce FGFR2 expression.";
    expect(sentenceRole("UNLABELLED", hypothesis, "RESULTS")).toMatchObject({ kind: "OBJECTIVE", finding: false });
    const result = "Indeed, transient transfection experiments show that the risk alleles augment silencer activity.";
    expect(sentenceRole("UNLABELLED", result, "RESULTS")).toMatchObject({ kind: "RESULTS", finding: true });
  });

  test("a call for research under CONCLUSIONS is not a finding; the conclusion before it is (PMID 15641027)", () => {
    const call = "Future trials should investigate equivalent efficacy with a reduced radiotherapy dose.";
    expect(sentenceRole("CONCLUSIONS", call, null).finding).toBe(false);
    expect(sentenceRole("UNLABELLED", call, "CONCLUSIONS").finding).toBe(false);
    const conclusion = "The current study demonstrated that childhood NPC was sensitive to chemotherapy.";
    expect(sentenceRole("CONCLUSIONS", conclusion, null)).toMatchObject({ kind: "CONCLUSIONS", finding: true });
  });

  test("a result with an effect keeps its role even when it names a procedure", () => {
    const effect = "CPM given after RT did not reduce the incidence of relapse.";
    expect(sentenceRole("UNLABELLED", effect, "RESULTS")).toMatchObject({ kind: "RESULTS", finding: true });
    const associated = "Patients who were assessed early were significantly less likely to relapse (p < 0.01).";
    expect(sentenceRole("RESULTS", associated, null)).toMatchObject({ kind: "RESULTS", finding: true });
  });
});
