/** An article as the API returns it (docs/product.md §3). Every field but pmid may be missing. */
export interface Article {
  pmid: string;
  title?: string | null;
  authors?: string | null;
  abstract?: string | null;
  journal?: string | null;
  publication_date?: string | null;
  /** What the record states of the date ("day", "month", "year"); absent or null: show what the value gives. */
  publication_date_precision?: "day" | "month" | "year" | null;
  /** PubMed's citation line (NLM style), written by the server: "Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5." */
  citation?: string | null;
  /** In a review's relevant list: false for a partial match (it addresses only some concepts of the topic). */
  covers_topic?: boolean;
  /** In likes and shares: false once the record has been removed from the index (only pmid is then set). */
  in_index?: boolean;
  doi?: string | null;
  full_text_link?: string | null;
  pdf_free_link?: string | null;
  /** The study design as a card shows it ("Randomized controlled trial"), and its badge form ("RCT"); null: none named. */
  study_design_label?: string | null;
  study_design_abbreviation?: string | null;
  /** From the MeSH check tags: "humans", "animals" or "humans_and_animals". */
  subjects?: string | null;
  /** PubMed marks the article retracted; never cited as support. */
  retracted?: boolean;
  /** PMID of the retraction notice, when PubMed links one. */
  retraction_notice_pmid?: number | null;
}
