import type { EmailMessage } from "../email/service.ts";
import { escapeHtml } from "../email/html.ts";

/**
 * The two trial e-mails: two days before the trial ends, and when it has ended. Each links to the plans on
 * /settings. Inline styles only, as the other messages, because many mail clients drop style sheets.
 */

/** "Monday, November 30, 2026 at 14:05 UTC": the end of a trial, unambiguous whatever the reader's time zone. */
export function formatTrialEnd(date: Date): string {
  const day = date.toLocaleDateString("en-US", {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return `${day} at ${time} UTC`;
}

function layout(
  title: string,
  paragraphs: string[],
  button: { label: string; href: string },
  supportEmail: string,
): string {
  const href = escapeHtml(button.href);
  return `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:24px;background:#f4f5f7;font-family:Inter,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1a202c;">
    <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;">
      <h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `      <p style="margin:0 0 16px;">${escapeHtml(p)}</p>`).join("\n")}
      <p style="margin:8px 0 24px;"><a href="${href}" style="display:inline-block;background:#0b6e6e;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;">${escapeHtml(button.label)}</a></p>
      <p style="margin:0;font-size:14px;color:#4a5568;">Questions: ${escapeHtml(supportEmail)}.</p>
    </div>
  </body>
</html>`;
}

/** Options of both messages. `plansUrl` is /settings?tab=subscription on this site. */
interface TrialEmailOptions {
  to: string;
  name: string | null;
  trialEndsAt: Date;
  plansUrl: string;
  supportEmail: string;
}

/** Sent two days before the trial ends. */
export function trialEndingEmail(o: TrialEmailOptions): EmailMessage {
  const when = formatTrialEnd(o.trialEndsAt);
  const subject = "Your LitReview trial ends in two days";
  const paragraphs = [
    `Hello ${o.name ?? o.to},`,
    `Your free week of LitReview Plus ends on ${when}.`,
    "To keep using literature reviews and weekly suggestions after that, choose a plan in your settings.",
  ];
  const button = { label: "View Subscription Plans", href: o.plansUrl };
  const text = [...paragraphs, `View the plans: ${o.plansUrl}`, "", `Questions: ${o.supportEmail}.`].join("\n");
  return { to: o.to, subject, html: layout(subject, paragraphs, button, o.supportEmail), text };
}

/** Sent when the trial has ended. */
export function trialEndedEmail(o: TrialEmailOptions): EmailMessage {
  const when = formatTrialEnd(o.trialEndsAt);
  const subject = "Your LitReview trial has ended";
  const paragraphs = [
    `Hello ${o.name ?? o.to},`,
    `Your free week of LitReview Plus ended on ${when}.`,
    "Your account, likes and past reviews are kept. Literature reviews and weekly suggestions open again as soon as you choose a plan.",
  ];
  const button = { label: "View Subscription Plans", href: o.plansUrl };
  const text = [...paragraphs, `View the plans: ${o.plansUrl}`, "", `Questions: ${o.supportEmail}.`].join("\n");
  return { to: o.to, subject, html: layout(subject, paragraphs, button, o.supportEmail), text };
}
