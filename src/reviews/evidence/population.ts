/**
 * Who the evidence is about (issue 21, item 4): when most cited studies concern a population the topic did not name
 * (children or adolescents, animals, one sex, one country), the summary says so in one sentence of its own ("9 of
 * the 10 cited studies are in children or adolescents."), so that a clinician treating adults is not misled. Read
 * from the records' MeSH check tags (Humans, Animals, Male, Female), age groups (Infant … Aged, 80 and over) and
 * geographic headings (the countries of NLM's Geographic Locations branch, Z01), never from the abstract's wording.
 * Pure.
 */
import type { SummaryArticle } from "../summary/types.ts";
import type { EvidenceRow } from "./types.ts";

/**
 * Share of the cited studies indexed for a facet (with an age group, a Humans/Animals tag, a sex tag or a country)
 * that must share one value for the sentence to name it: 0.7, "most" with a margin, so that a topic with mixed
 * evidence is not described by its larger half.
 */
export const POPULATION_SHARE = 0.7;

/** MeSH age groups of children and adolescents (check tags, and the descriptors used as such). */
const PAEDIATRIC_AGES = new Set([
  "Infant, Newborn",
  "Infant",
  "Infant, Premature",
  "Child, Preschool",
  "Child",
  "Adolescent",
]);
/** MeSH age groups of adults. */
const ADULT_AGES = new Set(["Young Adult", "Adult", "Middle Aged", "Aged", "Aged, 80 and over", "Frail Elderly"]);

/**
 * MeSH geographic headings of countries (Z01), each with how the sentence names it and the words by which a topic
 * names it (the country or its people). England, Scotland, Wales and Northern Ireland count as the United Kingdom.
 */
const COUNTRIES: ReadonlyArray<{ headings: readonly string[]; name: string; words: RegExp }> = [
  { headings: ["United States"], name: "the United States", words: /\b(?:united states|usa|u\.s\.|american?s?)\b/iu },
  { headings: ["Canada"], name: "Canada", words: /\bcanad\w*/iu },
  { headings: ["Mexico"], name: "Mexico", words: /\bmexic\w*/iu },
  { headings: ["Brazil"], name: "Brazil", words: /\bbrazil\w*/iu },
  { headings: ["Argentina"], name: "Argentina", words: /\bargentin\w*/iu },
  { headings: ["Chile"], name: "Chile", words: /\bchile(?:an)?s?\b/iu },
  { headings: ["Colombia"], name: "Colombia", words: /\bcolombia\w*/iu },
  { headings: ["Peru"], name: "Peru", words: /\bperu\w*/iu },
  {
    headings: ["United Kingdom", "England", "Scotland", "Wales", "Northern Ireland", "Great Britain"],
    name: "the United Kingdom",
    words: /\b(?:united kingdom|uk|britain|british|england|english|scotland|scottish|wales|welsh|northern ireland)\b/iu,
  },
  { headings: ["Ireland"], name: "Ireland", words: /\birish|\bireland/iu },
  { headings: ["France"], name: "France", words: /\b(?:france|french)\b/iu },
  { headings: ["Germany"], name: "Germany", words: /\bgerman\w*/iu },
  { headings: ["Italy"], name: "Italy", words: /\b(?:italy|italian\w*)\b/iu },
  { headings: ["Spain"], name: "Spain", words: /\b(?:spain|spanish)\b/iu },
  { headings: ["Portugal"], name: "Portugal", words: /\bportug\w*/iu },
  { headings: ["Netherlands"], name: "the Netherlands", words: /\b(?:netherlands|dutch|holland)\b/iu },
  { headings: ["Belgium"], name: "Belgium", words: /\bbelgi\w*/iu },
  { headings: ["Switzerland"], name: "Switzerland", words: /\b(?:switzerland|swiss)\b/iu },
  { headings: ["Austria"], name: "Austria", words: /\baustria\w*/iu },
  { headings: ["Sweden"], name: "Sweden", words: /\b(?:sweden|swedish|swedes?)\b/iu },
  { headings: ["Norway"], name: "Norway", words: /\b(?:norway|norwegian\w*)\b/iu },
  { headings: ["Denmark"], name: "Denmark", words: /\b(?:denmark|danish|danes?)\b/iu },
  { headings: ["Finland"], name: "Finland", words: /\b(?:finland|finnish|finns?)\b/iu },
  { headings: ["Poland"], name: "Poland", words: /\b(?:poland|polish)\b/iu },
  { headings: ["Greece"], name: "Greece", words: /\b(?:greece|greek\w*)\b/iu },
  { headings: ["Turkey"], name: "Turkey", words: /\b(?:turkey|turkish|türkiye)\b/iu },
  { headings: ["Russia"], name: "Russia", words: /\brussia\w*/iu },
  { headings: ["Israel"], name: "Israel", words: /\bisrael\w*/iu },
  { headings: ["Iran"], name: "Iran", words: /\biran\w*/iu },
  { headings: ["Saudi Arabia"], name: "Saudi Arabia", words: /\bsaudi\w*/iu },
  { headings: ["Egypt"], name: "Egypt", words: /\begypt\w*/iu },
  { headings: ["Nigeria"], name: "Nigeria", words: /\bnigeria\w*/iu },
  { headings: ["Kenya"], name: "Kenya", words: /\bkenya\w*/iu },
  { headings: ["South Africa"], name: "South Africa", words: /\bsouth african?\b/iu },
  { headings: ["India"], name: "India", words: /\b(?:india|indian\w*)\b/iu },
  { headings: ["Pakistan"], name: "Pakistan", words: /\bpakistan\w*/iu },
  { headings: ["China"], name: "China", words: /\b(?:china|chinese)\b/iu },
  { headings: ["Taiwan"], name: "Taiwan", words: /\btaiwan\w*/iu },
  { headings: ["Hong Kong"], name: "Hong Kong", words: /\bhong kong\b/iu },
  { headings: ["Japan"], name: "Japan", words: /\b(?:japan|japanese)\b/iu },
  { headings: ["Republic of Korea", "Korea"], name: "Korea", words: /\bkorea\w*/iu },
  { headings: ["Thailand"], name: "Thailand", words: /\b(?:thailand|thai)\b/iu },
  { headings: ["Vietnam"], name: "Vietnam", words: /\b(?:vietnam\w*|viet nam)\b/iu },
  { headings: ["Singapore"], name: "Singapore", words: /\bsingapor\w*/iu },
  { headings: ["Australia"], name: "Australia", words: /\baustralia\w*/iu },
  { headings: ["New Zealand"], name: "New Zealand", words: /\bnew zealand\w*/iu },
];
const COUNTRY_OF_HEADING = new Map(COUNTRIES.flatMap((c) => c.headings.map((h) => [h, c] as const)));

/** A case-insensitive pattern matching any of `words` (regex fragments) as whole words. */
const anyWord = (words: readonly string[]) => new RegExp(`\\b(?:${words.join("|")})\\b`, "iu");

/** A topic that names children or adolescents, or a condition of childhood by its age words. */
const NAMES_CHILDREN = anyWord([
  "child\\w*",
  "p(?:a)?ediatr\\w*",
  "infan\\w*",
  "neonat\\w*",
  "newborns?",
  "preterm",
  "prematur\\w*",
  "adolescen\\w*",
  "teen\\w*",
  "youths?",
  "juvenile",
  "boys?",
  "girls?",
  "kids?",
  "toddlers?",
  "school\\w*",
  "babies",
  "baby",
  "students?",
]);
/** A topic that names animals or animal research. */
const NAMES_ANIMALS = anyWord([
  "animals?",
  "mice",
  "mouse",
  "murine",
  "rats?",
  "rodents?",
  "canine",
  "dogs?",
  "cats?",
  "feline",
  "equine",
  "horses?",
  "bovine",
  "cattle",
  "cows?",
  "porcine",
  "pigs?",
  "swine",
  "sheep",
  "ovine",
  "goats?",
  "primates?",
  "monkeys?",
  "macaques?",
  "rabbits?",
  "zebrafish",
  "chickens?",
  "poultry",
  "veterinar\\w*",
  "preclinical",
  "in vivo",
  "xenograft\\w*",
]);
/** A topic that names a sex, or an organ or condition of one sex (the studies of prostate cancer are in men). */
const NAMES_SEX = anyWord([
  "wom[ae]n",
  "females?",
  "m[ae]n",
  "males?",
  "girls?",
  "boys?",
  "maternal",
  "mothers?",
  "fathers?",
  "pregnan\\w*",
  "gestation\\w*",
  "obstetric\\w*",
  "prostat\\w*",
  "ovar\\w*",
  "uter\\w*",
  "cervix",
  "cervical (?:cancer|carcinoma|neoplas\\w*|intraepithelial|screening|smear|dysplasia)",
  "endometri\\w*",
  "testic\\w*",
  "testes",
  "testis",
  "breast\\w*",
  "mammar\\w*",
  "menopaus\\w*",
  "menstru\\w*",
  "vagin\\w*",
  "vulv\\w*",
  "penile",
  "penis",
  "erectile",
  "sperm\\w*",
  "semen",
  "placent\\w*",
  "pre-?eclampsia",
  "eclampsia",
  "postpartum",
  "c[a]?esarean",
  "hysterectom\\w*",
  "mastectom\\w*",
  "lactation",
  "breast-?feed\\w*",
  "gyn[a]?ecolog\\w*",
  "androl\\w*",
]);

/** One thing most cited studies share: how many, of how many indexed for it, and how the sentence says it. */
interface Facet {
  count: number;
  indexed: number;
  /** What a study is indexed by for this facet ("age group"), said when not every cited study is. */
  by: string;
  predicate: string;
}

/**
 * The value most of the indexed studies share, when it holds at least POPULATION_SHARE of them and at least two
 * studies, and at least half of all cited studies are indexed (else the sentence would describe a minority); else null.
 * @param values One entry per cited study: its value, or null when the study is not indexed for the facet.
 */
function dominant<T>(values: readonly (T | null)[]): { value: T; count: number; indexed: number } | null {
  const counts = new Map<T, number>();
  let indexed = 0;
  for (const v of values) {
    if (v === null) continue;
    indexed++;
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  let best: { value: T; count: number } | null = null;
  for (const [value, count] of counts) if (!best || count > best.count) best = { value, count };
  if (!best || best.count < 2 || best.count < POPULATION_SHARE * indexed || 2 * indexed < values.length) return null;
  return { ...best, indexed };
}

/** "children" when only paediatric age groups are indexed, "other" when any adult one is, null when none is. */
function ageOf(mesh: readonly string[]): "children" | "other" | null {
  const paediatric = mesh.some((m) => PAEDIATRIC_AGES.has(m));
  const adult = mesh.some((m) => ADULT_AGES.has(m));
  return adult ? "other" : paediatric ? "children" : null;
}

/** "animals" for Animals without Humans, "humans" when Humans is tagged, null when neither. */
function speciesOf(mesh: readonly string[]): "animals" | "humans" | null {
  return mesh.includes("Humans") ? "humans" : mesh.includes("Animals") ? "animals" : null;
}

/** "female"/"male" for one sex tag alone, "both" for both, null for neither. */
function sexOf(mesh: readonly string[]): "female" | "male" | "both" | null {
  const female = mesh.includes("Female");
  const male = mesh.includes("Male");
  return female && male ? "both" : female ? "female" : male ? "male" : null;
}

/** The country the study's geographic headings name, "several" for more than one, null for none. */
function countryOf(mesh: readonly string[]): string | null {
  const names = new Set(mesh.flatMap((m) => COUNTRY_OF_HEADING.get(m)?.name ?? []));
  return names.size === 0 ? null : names.size === 1 ? [...names][0]! : "several";
}

/**
 * The sentence saying whom most cited studies are about, when the topic does not say it itself.
 * @param rows The evidence table (one row per cited study; only `pmid` is read).
 * @param articles The articles the summary was written from, for their MeSH headings; a cited study missing here or
 *   without headings counts as not indexed.
 * @param query The review's topic: a population it names (children, animals, a sex, a country) is not repeated.
 * @returns e.g. "9 of the 10 cited studies are in children or adolescents, and 7 are from Japan."; null when no
 *   facet holds for most of them.
 */
export function populationSentence(
  rows: readonly EvidenceRow[],
  articles: readonly SummaryArticle[],
  query: string,
): string | null {
  const total = rows.length;
  if (total < 2) return null;
  const byPmid = new Map(articles.map((a) => [a.pmid, a.mesh_terms ?? []]));
  const mesh = rows.map((r) => byPmid.get(r.pmid) ?? []);
  const facets: Facet[] = [];
  const animals = NAMES_ANIMALS.test(query) ? null : dominant(mesh.map(speciesOf));
  if (animals?.value === "animals") {
    facets.push({ ...animals, by: "as human or animal", predicate: "are animal studies" });
  }
  const children = NAMES_CHILDREN.test(query) ? null : dominant(mesh.map(ageOf));
  if (children?.value === "children") {
    facets.push({ ...children, by: "by age group", predicate: "are in children or adolescents" });
  }
  const sex = NAMES_SEX.test(query) ? null : dominant(mesh.map(sexOf));
  if (sex?.value === "female" || sex?.value === "male") {
    facets.push({ ...sex, by: "by sex", predicate: `are in ${sex.value}s only` });
  }
  const namesCountry = COUNTRIES.some((c) => c.words.test(query));
  const country = namesCountry ? null : dominant(mesh.map(countryOf));
  if (country && country.value !== "several") {
    facets.push({ ...country, by: "by country", predicate: `are from ${country.value}` });
  }
  if (facets.length === 0) return null;
  const clauses = facets.map((f, i) => clause(f, total, i === 0));
  const [first, ...rest] = clauses;
  if (rest.length === 0) return `${first}.`;
  const last = rest.pop();
  return `${first}, ${rest.map((c) => `${c}, `).join("")}and ${last}.`;
}

/**
 * One facet's clause. Counted against all cited studies when all are indexed for it ("9 of the 10 cited studies are
 * …", "All 3 cited studies are …"; after the first clause "and 7 are …"), else against those indexed, saying so
 * ("4 of the 5 cited studies indexed by age group are …"; after the first, "and 3 of the 4 indexed by country are …").
 */
function clause(f: Facet, total: number, first: boolean): string {
  const all = f.indexed === total;
  const whole = (n: number) => (n === 2 ? "both" : `all ${n}`);
  const capital = (s: string) => (first ? `${s.charAt(0).toUpperCase()}${s.slice(1)}` : s);
  if (all) {
    if (!first) return `${f.count === total ? whole(total) : f.count} ${f.predicate}`;
    const subject = f.count === total ? capital(whole(total)) : `${f.count} of the ${total}`;
    return `${subject} cited studies ${f.predicate}`;
  }
  const of = f.count === f.indexed ? whole(f.indexed) : `${f.count} of the ${f.indexed}`;
  return first ? `${capital(of)} cited studies indexed ${f.by} ${f.predicate}` : `${of} indexed ${f.by} ${f.predicate}`;
}
