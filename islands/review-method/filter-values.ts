/** The optional filters of a new review as the topic form holds them, and as the start call sends them. */

/** The filters as the start call takes them (src/reviews/filters.ts); absent fields mean no filter. */
export interface FilterValues {
  year_from?: string;
  year_to?: string;
  study_designs?: string[];
  humans_only?: boolean;
  free_full_text?: boolean;
}

/** The filters as query parameters of the start call: only those set. */
export function filterQuery(value: FilterValues): Record<string, string> {
  const q: Record<string, string> = {};
  if (value.year_from?.trim()) q.year_from = value.year_from.trim();
  if (value.year_to?.trim()) q.year_to = value.year_to.trim();
  if (value.study_designs && value.study_designs.length > 0) q.study_designs = value.study_designs.join(",");
  if (value.humans_only) q.humans_only = "true";
  if (value.free_full_text) q.free_full_text = "true";
  return q;
}
