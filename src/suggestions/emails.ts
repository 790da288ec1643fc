import type { EmailMessage } from "../email/service.ts";
import { escapeHtml } from "../email/html.ts";
import { listUnsubscribeHeaders } from "../email/list-unsubscribe.ts";
import type { Section, SectionEntry } from "./sections.ts";

/**
 * The weekly digest e-mail (issue 11): each section's first articles with their why-lines and links, a plain-text and
 * an HTML part, and a one-click unsubscribe that needs no login: a signed link in the body and the List-Unsubscribe
 * and List-Unsubscribe-Post headers of RFC 8058 (a mail client POSTs "List-Unsubscribe=One-Click" to the link).
 */

/** Articles per section in the digest. */
export const DIGEST_PER_SECTION = 3;

const TITLES: Record<Section, string> = {
  new_weekly_articles: "New This Week",
  new_yearly_articles: "New This Year",
  pertinent_articles: "Pertinent For You",
  disruptive_articles: "Potentially Disruptive",
};

/** One digest article: its title and the section entry's why-line. */
export interface DigestArticle extends SectionEntry {
  title: string | null;
}

/**
 * The digest message for `to`. Sections without articles are left out. @param unsubscribeUrl the signed link.
 */
export function weeklyDigestEmail(opts: {
  to: string;
  name: string;
  week: string;
  sections: Record<Section, DigestArticle[]>;
  origin: string;
  unsubscribeUrl: string;
  supportEmail: string;
}): EmailMessage {
  const suggestionsUrl = `${opts.origin}/suggestions`;
  const pubmed = (pmid: number) => `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`;
  const filled = (Object.keys(TITLES) as Section[]).filter((s) => opts.sections[s].length > 0);
  const htmlSections = filled
    .map((s) => {
      const items = opts.sections[s]
        .slice(0, DIGEST_PER_SECTION)
        .map(
          (a) =>
            `<li style="margin:0 0 12px;"><a href="${escapeHtml(pubmed(a.pmid))}" style="color:#0b6e6e;font-weight:600;">${escapeHtml(a.title || `PubMed article ${a.pmid}`)}</a><br><span style="font-size:13px;color:#4a5568;">${escapeHtml(a.reason)}</span></li>`,
        )
        .join("");
      return `<h2 style="font-size:16px;margin:24px 0 8px;">${TITLES[s]}</h2><ul style="padding-left:18px;margin:0;">${items}</ul>`;
    })
    .join("");
  const html = `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:24px;background:#f4f5f7;font-family:Inter,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1a202c;">
    <div style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;">
      <h1 style="font-size:20px;margin:0 0 8px;">Your Weekly Suggestions</h1>
      <p style="margin:0;">Hello ${escapeHtml(opts.name)}, here are this week's articles (${escapeHtml(opts.week)}), curated from your latest liked articles and your profile description.</p>
      ${htmlSections}
      <p style="margin:24px 0;"><a href="${escapeHtml(suggestionsUrl)}" style="display:inline-block;background:#0b6e6e;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;">See all your suggestions</a></p>
      <p style="margin:0;font-size:13px;color:#4a5568;">You receive this digest because you subscribe to LitReview's weekly suggestions. <a href="${escapeHtml(opts.unsubscribeUrl)}" style="color:#4a5568;">Unsubscribe from this digest</a> (you can turn it back on in your settings). Questions: ${escapeHtml(opts.supportEmail)}.</p>
    </div>
  </body>
</html>`;
  const text = [
    "Your Weekly Suggestions",
    "",
    `Hello ${opts.name}, here are this week's articles (${opts.week}), curated from your latest liked articles and your profile description.`,
    ...filled.flatMap((s) => [
      "",
      TITLES[s],
      ...opts.sections[s]
        .slice(0, DIGEST_PER_SECTION)
        .flatMap((a) => [`- ${a.title || `PubMed article ${a.pmid}`}`, `  ${a.reason}`, `  ${pubmed(a.pmid)}`]),
    ]),
    "",
    `See all your suggestions: ${suggestionsUrl}`,
    "",
    `Unsubscribe from this digest: ${opts.unsubscribeUrl}`,
    `Questions: ${opts.supportEmail}.`,
  ].join("\n");
  return {
    to: opts.to,
    subject: `LitReview - Your weekly suggestions (${opts.week})`,
    html,
    text,
    headers: listUnsubscribeHeaders(opts.unsubscribeUrl),
  };
}
