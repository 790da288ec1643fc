/** An article as the API returns it (spec §3). Every field but pmid may be missing. */
export interface Article {
  pmid: string;
  title?: string | null;
  authors?: string | null;
  abstract?: string | null;
  journal?: string | null;
  publication_date?: string | null;
  doi?: string | null;
  full_text_link?: string | null;
  pdf_free_link?: string | null;
}
