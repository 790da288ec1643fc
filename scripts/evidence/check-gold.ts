/**
 * Checks a file of evidence labels (issue 33's gold set) against the abstracts they label: every field present and
 * of the right kind, every span an exact substring of its abstract, every number readable in the span it was read
 * from, arms adding up to the participants. Prints one line per problem; exits 1 when there is any.
 *
 * Usage: bun scripts/evidence/check-gold.ts LABELS.json [ABSTRACTS.json | --sample]
 *   LABELS.json: an array of records, or a fixture `{articles: [...]}`.
 *   ABSTRACTS.json: the batch file labelled ([{pmid, abstract}]); --sample (default) reads the abstracts from the
 *   bundled sample instead.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parsePubmedFile } from "../../search/pubmed/parser.ts";
import { tokenize } from "../../src/reviews/evidence/tokens.ts";
import { GOLD_DESIGNS, type GoldRecord, MEASURES } from "./gold.ts";

const ROOT = join(import.meta.dir, "..", "..");
const [labelsPath, abstractsPath] = process.argv.slice(2);
if (!labelsPath) {
  console.error("usage: bun scripts/evidence/check-gold.ts LABELS.json [ABSTRACTS.json | --sample]");
  process.exit(2);
}
const raw = await Bun.file(labelsPath).json();
const records = (Array.isArray(raw) ? raw : raw.articles) as GoldRecord[];

const abstracts = new Map<number, string>();
if (abstractsPath && abstractsPath !== "--sample") {
  for (const r of (await Bun.file(abstractsPath).json()) as { pmid: number; abstract: string }[]) {
    abstracts.set(r.pmid, r.abstract);
  }
} else {
  const wanted = new Set(records.map((r) => r.pmid));
  const dir = join(ROOT, "sample/pubmed");
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith(".xml.gz")) continue;
    for await (const e of parsePubmedFile(join(dir, file))) {
      if (e.type === "article" && wanted.has(e.article.pmid) && !abstracts.has(e.article.pmid) && e.article.abstract) {
        abstracts.set(e.article.pmid, e.article.abstract);
      }
    }
  }
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();
/**
 * Whether `value` is written in `span`: as digits (with or without a leading zero, with trailing zeros "0.0200",
 * thousands separated by a comma, space, thin space or point, a middle-dot decimal point, a Unicode minus), or in
 * words ("Sixty-one percent").
 */
function readable(value: number, span: string): boolean {
  const s = span
    .replace(/[−–]/g, "-")
    .replace(/·/g, ".")
    .replace(/(\d)[,\u2009\u202f ](?=\d{3}\b)/gu, "$1");
  const abs = Math.abs(value);
  for (const m of s.matchAll(/\d*\.?\d+/gu)) {
    const read = Number(m[0]);
    if (Number.isFinite(read) && Math.abs(read - abs) < 1e-9) return true;
  }
  return Number.isInteger(abs) && numberWordsIn(span).includes(abs);
}

/** Numbers written in words in a text ("Sixty-one" → 61). */
function numberWordsIn(text: string): number[] {
  const out: number[] = [];
  for (const t of tokenize(text)) if (t.kind === "number" && t.words) out.push(t.value);
  return out;
}

const problems: string[] = [];
const say = (pmid: number, msg: string) => problems.push(`${pmid}: ${msg}`);
const seen = new Set<number>();
for (const r of records) {
  const abs = abstracts.get(r.pmid);
  if (seen.has(r.pmid)) say(r.pmid, "labelled twice");
  seen.add(r.pmid);
  if (abs === undefined) {
    say(r.pmid, "no abstract found for this PMID");
    continue;
  }
  const text = squash(abs);
  const span = (field: string, v: unknown) => {
    if (v === null || v === undefined) return;
    if (typeof v !== "string") return say(r.pmid, `${field} is not a string`);
    if (!text.includes(squash(v))) say(r.pmid, `${field} is not verbatim in the abstract: "${v}"`);
  };
  if (r.participants !== null && !(Number.isInteger(r.participants) && r.participants > 0)) {
    say(r.pmid, "participants must be a positive integer or null");
  }
  span("participants_text", r.participants_text);
  if (r.participants !== null && r.participants_basis !== "arms" && r.participants_text) {
    const inWords =
      /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)/i;
    if (!readable(r.participants, r.participants_text) && !inWords.test(r.participants_text)) {
      say(r.pmid, `participants ${r.participants} not readable in participants_text`);
    }
  }
  if ((r.participants === null) !== (r.participants_text === null)) {
    say(r.pmid, "participants and participants_text must be both null or both set");
  }
  const bases = ["randomised", "enrolled", "included", "analysed", "arms"];
  if (r.participants !== null && !bases.includes(r.participants_basis as string)) {
    say(r.pmid, `participants_basis must be one of ${bases.join(", ")}`);
  }
  if (r.participants_arms) {
    const sum = r.participants_arms.reduce((a, b) => a + b, 0);
    if (sum !== r.participants) say(r.pmid, `arms ${r.participants_arms.join(" + ")} = ${sum} ≠ ${r.participants}`);
    if (r.participants_basis !== "arms") say(r.pmid, "participants_arms set but basis is not 'arms'");
    for (const n of r.participants_arms) {
      if (
        r.participants_text &&
        !readable(n, r.participants_text) &&
        !/\ban equal number\b/iu.test(r.participants_text)
      ) {
        say(r.pmid, `arm ${n} not readable in participants_text`);
      }
    }
  } else if (r.participants_basis === "arms") say(r.pmid, "basis 'arms' needs participants_arms");
  if (!(GOLD_DESIGNS as readonly string[]).includes(r.design)) say(r.pmid, `design "${r.design}" is not a design`);
  span("design_text", r.design_text);
  const a = r.appraisal;
  if (!a) say(r.pmid, "appraisal missing");
  else {
    span("appraisal.follow_up", a.follow_up);
    span("appraisal.loss_to_follow_up", a.loss_to_follow_up);
    if (![null, "prospective", "retrospective"].includes(a.timing)) say(r.pmid, "appraisal.timing invalid");
    if (![null, "double-blind", "single-blind", "assessor-blind", "open-label"].includes(a.blinding)) {
      say(r.pmid, "appraisal.blinding invalid");
    }
    for (const k of ["randomised", "comparison_group"] as const) {
      if (![null, true, false].includes(a[k])) say(r.pmid, `appraisal.${k} invalid`);
    }
  }
  if (!Array.isArray(r.effects)) {
    say(r.pmid, "effects must be an array");
    continue;
  }
  r.effects.forEach((e, i) => {
    const where = `effects[${i}]`;
    if (!(MEASURES as readonly string[]).includes(e.measure)) say(r.pmid, `${where}.measure "${e.measure}" unknown`);
    span(`${where}.text`, e.text);
    span(`${where}.group`, e.group);
    span(`${where}.compared_group`, e.compared_group);
    span(`${where}.outcome`, e.outcome);
    if (typeof e.text !== "string" || e.text === "") {
      say(r.pmid, `${where}.text missing`);
      return;
    }
    for (const k of ["value", "compared_value", "ci_low", "ci_high", "p_value"] as const) {
      const v = e[k];
      if (v === null || v === undefined) continue;
      if (typeof v !== "number" || !Number.isFinite(v)) say(r.pmid, `${where}.${k} is not a number`);
      else if (!readable(v, e.text)) say(r.pmid, `${where}.${k} = ${v} not readable in its text`);
    }
    const paired = ["percentage", "mean", "median"].includes(e.measure);
    if (paired && (e.compared_value === null || e.compared_value === undefined)) {
      say(r.pmid, `${where}: a ${e.measure} needs compared_value`);
    }
    if (!paired && e.compared_value !== null && e.compared_value !== undefined) {
      say(r.pmid, `${where}: compared_value only for percentage, mean, median`);
    }
    if ((e.p_value === null) !== (e.p_relation === null)) say(r.pmid, `${where}: p_value and p_relation go together`);
    if ((e.ci_low === null) !== (e.ci_high === null)) say(r.pmid, `${where}: ci_low and ci_high go together`);
  });
}
for (const p of problems) console.log(p);
console.log(`${records.length} records, ${problems.length} problems`);
process.exit(problems.length > 0 ? 1 : 0);
