/**
 * The vocabulary shared by the reading (read.ts) and the mapping (map.ts): the PubMed element names either of them
 * acts on, each turned into a small integer once per start tag so that every later decision is an integer
 * comparison rather than a string comparison.
 */

// Element codes. E_OTHER is every name neither side acts on.
export const E_OTHER = 0;
export const E_PUBMED_ARTICLE = 1;
export const E_PUBMED_BOOK_ARTICLE = 2;
export const E_DELETE_CITATION = 3;
export const E_MEDLINE_CITATION = 4;
export const E_PMID = 5;
export const E_ARTICLE = 6;
export const E_BOOK_DOCUMENT = 7;
export const E_ARTICLE_TITLE = 8;
export const E_VERNACULAR_TITLE = 9;
export const E_BOOK_TITLE = 10;
export const E_BOOK = 11;
export const E_TITLE = 12;
export const E_JOURNAL = 13;
export const E_PUB_DATE = 14;
export const E_JOURNAL_ISSUE = 15;
export const E_ARTICLE_DATE = 16;
export const E_YEAR = 17;
export const E_MONTH = 18;
export const E_DAY = 19;
export const E_SEASON = 20;
export const E_MEDLINE_DATE = 21;
export const E_ABSTRACT_TEXT = 22;
export const E_ABSTRACT = 23;
export const E_AUTHOR_LIST = 24;
export const E_AUTHOR = 25;
export const E_LAST_NAME = 26;
export const E_FORE_NAME = 27;
export const E_INITIALS = 28;
export const E_SUFFIX = 29;
export const E_COLLECTIVE_NAME = 30;
export const E_LANGUAGE = 31;
export const E_PUBLICATION_TYPE = 32;
export const E_PUBLICATION_TYPE_LIST = 33;
export const E_DESCRIPTOR_NAME = 34;
export const E_MESH_HEADING = 35;
export const E_KEYWORD = 36;
export const E_KEYWORD_LIST = 37;
export const E_ELOCATION_ID = 38;
export const E_ARTICLE_ID = 39;
export const E_ARTICLE_ID_LIST = 40;
export const E_PUBMED_DATA = 41;
export const E_PUBMED_BOOK_DATA = 42;
export const E_OTHER_ID = 43;
/** Elements whose whole content is unused (see SKIPPED_ELEMENTS). */
export const E_SKIPPED = 44;
export const E_COMMENTS_CORRECTIONS = 45;
export const E_REFERENCE_LIST = 46;
export const E_REFERENCE = 47;
export const E_HISTORY = 48;
export const E_PUBMED_PUB_DATE = 49;
export const E_QUALIFIER_NAME = 50;
export const E_VOLUME = 51;
export const E_ISSUE = 52;
export const E_PAGINATION = 53;
export const E_MEDLINE_PGN = 54;
export const E_START_PAGE = 55;
export const E_END_PAGE = 56;
export const E_ISO_ABBREVIATION = 57;
export const E_MEDLINE_JOURNAL_INFO = 58;
export const E_MEDLINE_TA = 59;
export const E_ISSN = 60;
export const E_IDENTIFIER = 61;
export const E_PUBLISHER = 62;
export const E_PUBLISHER_NAME = 63;
export const E_PUBLISHER_LOCATION = 64;
export const E_LOCATION_LABEL = 65;

/**
 * Parts of a record that hold nothing the mapping uses. Inside them only the nesting depth is tracked (no names, no
 * codes, no attributes), which matters because they are most of a modern record: a reference list alone is often
 * half its tags. Their nesting is still checked where it counts: a subtree that does not close where it should
 * makes the record malformed, and a record start inside one is still recognised.
 */
const SKIPPED_ELEMENTS = [
  // A reference list is read only for its references' PMIDs (the citation graph of the disruption signal): the
  // citation texts, most of its bytes, are skipped.
  "Citation",
  "ChemicalList",
  "GrantList",
  "InvestigatorList",
  "SupplMeshList",
  "GeneSymbolList",
  "DataBankList",
  "PersonalNameSubjectList",
  "OtherAbstract",
  "AffiliationInfo",
  "DateCompleted",
  "DateRevised",
  "Sections",
  "CoiStatement",
];

/** Lengths of the record element names (PubmedArticle, DeleteCitation, MedlineCitation, PubmedBookArticle). */
export function mayBeRecordName(length: number): boolean {
  return length === 13 || length === 14 || length === 15 || length === 17;
}

/** Element name → its code; names not listed are E_OTHER. */
export const ELEMENT_CODES = new Map<string, number>([
  ["PubmedArticle", E_PUBMED_ARTICLE],
  ["PubmedBookArticle", E_PUBMED_BOOK_ARTICLE],
  ["DeleteCitation", E_DELETE_CITATION],
  ["MedlineCitation", E_MEDLINE_CITATION],
  ["PMID", E_PMID],
  ["Article", E_ARTICLE],
  ["BookDocument", E_BOOK_DOCUMENT],
  ["ArticleTitle", E_ARTICLE_TITLE],
  ["VernacularTitle", E_VERNACULAR_TITLE],
  ["BookTitle", E_BOOK_TITLE],
  ["Book", E_BOOK],
  ["Title", E_TITLE],
  ["Journal", E_JOURNAL],
  ["PubDate", E_PUB_DATE],
  ["JournalIssue", E_JOURNAL_ISSUE],
  ["ArticleDate", E_ARTICLE_DATE],
  ["Year", E_YEAR],
  ["Month", E_MONTH],
  ["Day", E_DAY],
  ["Season", E_SEASON],
  ["MedlineDate", E_MEDLINE_DATE],
  ["AbstractText", E_ABSTRACT_TEXT],
  ["Abstract", E_ABSTRACT],
  ["AuthorList", E_AUTHOR_LIST],
  ["Author", E_AUTHOR],
  ["LastName", E_LAST_NAME],
  ["ForeName", E_FORE_NAME],
  ["Initials", E_INITIALS],
  ["Suffix", E_SUFFIX],
  ["CollectiveName", E_COLLECTIVE_NAME],
  ["Language", E_LANGUAGE],
  ["PublicationType", E_PUBLICATION_TYPE],
  ["PublicationTypeList", E_PUBLICATION_TYPE_LIST],
  ["DescriptorName", E_DESCRIPTOR_NAME],
  ["MeshHeading", E_MESH_HEADING],
  ["Keyword", E_KEYWORD],
  ["KeywordList", E_KEYWORD_LIST],
  ["ELocationID", E_ELOCATION_ID],
  ["ArticleId", E_ARTICLE_ID],
  ["ArticleIdList", E_ARTICLE_ID_LIST],
  ["PubmedData", E_PUBMED_DATA],
  ["PubmedBookData", E_PUBMED_BOOK_DATA],
  ["OtherID", E_OTHER_ID],
  ["CommentsCorrections", E_COMMENTS_CORRECTIONS],
  ["ReferenceList", E_REFERENCE_LIST],
  ["Reference", E_REFERENCE],
  ["History", E_HISTORY],
  ["PubMedPubDate", E_PUBMED_PUB_DATE],
  ["QualifierName", E_QUALIFIER_NAME],
  ["Volume", E_VOLUME],
  ["Issue", E_ISSUE],
  ["Pagination", E_PAGINATION],
  ["MedlinePgn", E_MEDLINE_PGN],
  ["StartPage", E_START_PAGE],
  ["EndPage", E_END_PAGE],
  ["ISOAbbreviation", E_ISO_ABBREVIATION],
  ["MedlineJournalInfo", E_MEDLINE_JOURNAL_INFO],
  ["MedlineTA", E_MEDLINE_TA],
  ["ISSN", E_ISSN],
  ["Identifier", E_IDENTIFIER],
  ["Publisher", E_PUBLISHER],
  ["PublisherName", E_PUBLISHER_NAME],
  ["PublisherLocation", E_PUBLISHER_LOCATION],
  ["LocationLabel", E_LOCATION_LABEL],
  ...SKIPPED_ELEMENTS.map((name): [string, number] => [name, E_SKIPPED]),
]);
