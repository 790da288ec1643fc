/**
 * PubMed's field tags and names (short and long forms, the tags of fields the local index does not store) and the
 * English names of MEDLINE languages with their ISO 639-2 codes: the vocabulary the parser and the evaluations share.
 */
import type { PubmedField } from "./types.ts";

/** Field tags (lower case, inner white space single) → field. Long forms as PubMed's query translation writes them. */
export const FIELD_TAGS: Readonly<Record<string, PubmedField>> = {
  all: "all",
  "all fields": "all",
  tiab: "tiab",
  "title/abstract": "tiab",
  ti: "ti",
  title: "ti",
  ab: "ab",
  abstract: "ab",
  tw: "tw",
  "text word": "tw",
  "text words": "tw",
  ot: "ot",
  "other term": "ot",
  "other terms": "ot",
  mh: "mh",
  mesh: "mh",
  "mesh terms": "mh",
  "mesh term": "mh",
  majr: "majr",
  "mesh major topic": "majr",
  au: "au",
  auth: "au",
  author: "au",
  ta: "ta",
  jour: "ta",
  journal: "ta",
  dp: "dp",
  pdat: "dp",
  "date - publication": "dp",
  "publication date": "dp",
  pt: "pt",
  ptyp: "pt",
  "publication type": "pt",
  la: "la",
  lang: "la",
  language: "la",
};

/** PubMed's names of the fields, as in its query translation. */
export const FIELD_NAMES: Readonly<Record<PubmedField, string>> = {
  all: "All Fields",
  tiab: "Title/Abstract",
  ti: "Title",
  ab: "Abstract",
  tw: "Text Word",
  ot: "Other Term",
  mh: "MeSH Terms",
  majr: "MeSH Major Topic",
  au: "Author",
  ta: "Journal",
  dp: "Date - Publication",
  pt: "Publication Type",
  la: "Language",
};

/** PubMed field tags of fields the local index does not store (recognised, so the error can say so). */
export const UNSEARCHABLE_TAGS = new Set(
  (
    "ad|affl|affiliation|aid|article identifier|book|cn|corporate author|cois|conflict of interest statement|crdt|" +
    "create date|dcom|completion date|ed|editor|edat|entrez date|fau|full author name|fir|full investigator name|gr|" +
    "grant number|ip|issue|ir|investigator|isbn|jid|nlm unique id|lastau|last author|last author name|1au|" +
    "first author|first author name|lid|location id|lr|modification date|mhda|mesh date|nm|" +
    "supplementary concept|pa|pharmacological action|pg|pagination|pl|place of publication|pmid|uid|pmcid|ps|" +
    "personal name as subject|pubn|publisher|rn|ec/rn number|sb|subset|filter|sh|subheading|mesh subheading|si|" +
    "secondary source id|sso|tt|transliterated title|vi|volume|grants and funding"
  ).split("|"),
);

/** English names of MEDLINE languages → ISO 639-2 codes as PubMed stores them (NLM's language code list). */
export const LANGUAGE_CODES: Readonly<Record<string, string>> = {
  afrikaans: "afr",
  albanian: "alb",
  arabic: "ara",
  armenian: "arm",
  azerbaijani: "aze",
  bosnian: "bos",
  bulgarian: "bul",
  catalan: "cat",
  chinese: "chi",
  croatian: "hrv",
  czech: "cze",
  danish: "dan",
  dutch: "dut",
  english: "eng",
  esperanto: "epo",
  estonian: "est",
  finnish: "fin",
  french: "fre",
  georgian: "geo",
  german: "ger",
  greek: "gre",
  hebrew: "heb",
  hindi: "hin",
  hungarian: "hun",
  icelandic: "ice",
  indonesian: "ind",
  italian: "ita",
  japanese: "jpn",
  korean: "kor",
  latin: "lat",
  latvian: "lav",
  lithuanian: "lit",
  macedonian: "mac",
  malay: "may",
  maori: "mao",
  norwegian: "nor",
  persian: "per",
  polish: "pol",
  portuguese: "por",
  romanian: "rum",
  russian: "rus",
  serbian: "srp",
  slovak: "slo",
  slovenian: "slv",
  spanish: "spa",
  swedish: "swe",
  thai: "tha",
  turkish: "tur",
  ukrainian: "ukr",
  urdu: "urd",
  vietnamese: "vie",
  welsh: "wel",
};
