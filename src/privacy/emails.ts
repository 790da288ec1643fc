import type { EmailMessage } from "../email/service.ts";
import { escapeHtml } from "../email/html.ts";

/** "26 November 2026" (UTC), the way the notices write dates. */
export function longDate(date: Date): string {
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

function page(title: string, paragraphs: string[], button?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;">${p}</p>`).join("\n      ");
  const action = button
    ? `<p style="margin:0 0 24px;"><a href="${escapeHtml(button.href)}" style="display:inline-block;background:#2b6cb0;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;">${escapeHtml(button.label)}</a></p>`
    : "";
  return `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:24px;background:#f4f5f7;font-family:Inter,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1a202c;">
    <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;">
      <h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(title)}</h1>
      ${body}
      ${action}
    </div>
  </body>
</html>`;
}

/**
 * The notice an inactive account receives before the retention job deletes it: when, why, and that logging in keeps
 * the account. @param deleteOn the day the account will be deleted.
 */
export function deletionNoticeEmail(opts: {
  to: string;
  deleteOn: Date;
  loginUrl: string;
  supportEmail: string;
}): EmailMessage {
  const when = longDate(opts.deleteOn);
  const subject = `LitReview - Your inactive account will be deleted on ${when}`;
  const lines = [
    `Nobody has logged in to the LitReview account ${opts.to} for almost two years.`,
    `As our privacy policy states, an account inactive for two years is deleted with its data: reviews, likes, shares and interests. This account will be deleted on ${when}.`,
    "To keep it, log in before that date. To let it go, do nothing.",
    `Questions: ${opts.supportEmail}.`,
  ];
  const html = page("Your account will be deleted", lines.map(escapeHtml), {
    href: opts.loginUrl,
    label: "Log in to keep my account",
  });
  const text = [
    "Your account will be deleted",
    "",
    ...lines.slice(0, 3),
    `Log in here: ${opts.loginUrl}`,
    "",
    lines[3]!,
  ].join("\n");
  return { to: opts.to, subject, html, text };
}

/** The message that a "Download my data" file is ready: the link, and until when it works. */
export function dataExportReadyEmail(opts: {
  to: string;
  link: string;
  expiresAt: Date;
  supportEmail: string;
}): EmailMessage {
  const until = longDate(opts.expiresAt);
  const subject = "LitReview - Your data is ready to download";
  const lines = [
    `The copy of your LitReview data you asked for is ready: one JSON file with your account, reviews, likes, shares, interests, subscription and e-mail preferences.`,
    `The link works until ${until}, for you only: log in with ${opts.to} if asked. After that date, ask again from your settings.`,
    `If you did not ask for this, change your password and tell us: ${opts.supportEmail}.`,
  ];
  const html = page("Your data is ready", lines.map(escapeHtml), { href: opts.link, label: "Download my data" });
  const text = ["Your data is ready", "", lines[0]!, `Download it here: ${opts.link}`, lines[1]!, "", lines[2]!].join(
    "\n",
  );
  return { to: opts.to, subject, html, text };
}
