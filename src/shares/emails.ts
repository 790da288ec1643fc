import type { EmailMessage } from "../email/service.ts";
import { escapeHtml } from "../email/html.ts";
import { listUnsubscribeHeaders } from "../email/list-unsubscribe.ts";

/**
 * The message a share sends its recipient: who shared which article, and a link that opens it in the app
 * (/dashboard?tab=shares&article=PMID opens the article's dialog under Received Shares). `unsubscribeUrl` is the
 * signed one-click link that turns share e-mails off: in the footer and in RFC 8058's List-Unsubscribe headers.
 */
export function articleSharedEmail(opts: {
  to: string;
  sharerName: string;
  articleTitle: string;
  pmid: number;
  link: string;
  supportEmail: string;
  unsubscribeUrl: string;
}): EmailMessage {
  const subject = `LitReview - ${opts.sharerName} shared an article with you`;
  const link = escapeHtml(opts.link);
  const html = `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:24px;background:#f4f5f7;font-family:Inter,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1a202c;">
    <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;">
      <h1 style="font-size:20px;margin:0 0 16px;">An article for you</h1>
      <p style="margin:0 0 16px;"><strong>${escapeHtml(opts.sharerName)}</strong> shared this article with you on LitReview:</p>
      <p style="margin:0 0 24px;font-size:17px;"><strong>${escapeHtml(opts.articleTitle)}</strong><br><span style="font-size:14px;color:#4a5568;">PMID ${opts.pmid}</span></p>
      <p style="margin:0 0 24px;"><a href="${link}" style="display:inline-block;background:#2b6cb0;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;">Open the article</a></p>
      <p style="margin:0 0 16px;font-size:14px;">Or paste this link into your browser: <a href="${link}" style="color:#2b6cb0;word-break:break-all;">${link}</a></p>
      <p style="margin:0 0 16px;font-size:14px;color:#4a5568;">You find every article shared with you under Received Shares on your dashboard. Questions: ${escapeHtml(opts.supportEmail)}.</p>
      <p style="margin:0;font-size:13px;color:#4a5568;">You receive this e-mail because someone shared an article with your LitReview account. <a href="${escapeHtml(opts.unsubscribeUrl)}" style="color:#4a5568;">Stop e-mails about shared articles</a> (shares still appear on your dashboard; you can turn the e-mails back on in your settings).</p>
    </div>
  </body>
</html>`;
  const text = [
    "An article for you",
    "",
    `${opts.sharerName} shared this article with you on LitReview:`,
    `${opts.articleTitle} (PMID ${opts.pmid})`,
    "",
    `Open it here: ${opts.link}`,
    "",
    `You find every article shared with you under Received Shares on your dashboard. Questions: ${opts.supportEmail}.`,
    "",
    `Stop e-mails about shared articles: ${opts.unsubscribeUrl}`,
  ].join("\n");
  return { to: opts.to, subject, html, text, headers: listUnsubscribeHeaders(opts.unsubscribeUrl) };
}

/**
 * The message a share to an address without an account sends (docs/decisions/0032-share-privacy-and-preferences.md):
 * who invites them to read which article, a link to the record on PubMed (readable without an account) and one to
 * sign up. It names the sharer as they call themselves, so the reader can judge whether to trust it.
 */
export function shareInvitationEmail(opts: {
  to: string;
  sharerName: string;
  articleTitle: string;
  pmid: number;
  signupLink: string;
  supportEmail: string;
}): EmailMessage {
  const subject = `LitReview - ${opts.sharerName} invited you to read an article`;
  const pubmed = `https://pubmed.ncbi.nlm.nih.gov/${opts.pmid}/`;
  const signup = escapeHtml(opts.signupLink);
  const html = `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:24px;background:#f4f5f7;font-family:Inter,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1a202c;">
    <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;">
      <h1 style="font-size:20px;margin:0 0 16px;">An article for you</h1>
      <p style="margin:0 0 16px;"><strong>${escapeHtml(opts.sharerName)}</strong> wants to share this article with you on LitReview, a literature review tool for biomedical researchers:</p>
      <p style="margin:0 0 24px;font-size:17px;"><strong>${escapeHtml(opts.articleTitle)}</strong><br><span style="font-size:14px;color:#4a5568;">PMID ${opts.pmid}</span></p>
      <p style="margin:0 0 16px;"><a href="${escapeHtml(pubmed)}" style="color:#2b6cb0;">Read it on PubMed</a></p>
      <p style="margin:0 0 24px;"><a href="${signup}" style="display:inline-block;background:#2b6cb0;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;">Join LitReview</a></p>
      <p style="margin:0;font-size:14px;color:#4a5568;">You have no LitReview account with this address, and this invitation creates none: if you do not want one, ignore this message. Questions: ${escapeHtml(opts.supportEmail)}.</p>
    </div>
  </body>
</html>`;
  const text = [
    "An article for you",
    "",
    `${opts.sharerName} wants to share this article with you on LitReview, ` +
      "a literature review tool for biomedical researchers:",
    `${opts.articleTitle} (PMID ${opts.pmid})`,
    "",
    `Read it on PubMed: ${pubmed}`,
    `Join LitReview: ${opts.signupLink}`,
    "",
    "You have no LitReview account with this address, and this invitation creates none: " +
      "if you do not want one, ignore this message.",
    `Questions: ${opts.supportEmail}.`,
  ].join("\n");
  return { to: opts.to, subject, html, text };
}
