import type { EmailMessage } from "../email/service.ts";
import { escapeHtml } from "../email/html.ts";

/**
 * The password recovery message: a link to /reset-password?token=… that works once, for `validHours`.
 * Inline styles only, because many mail clients drop style sheets.
 */
export function passwordResetEmail(opts: {
  to: string;
  link: string;
  validHours: number;
  supportEmail: string;
}): EmailMessage {
  const subject = `LitReview - Password recovery for user ${opts.to}`;
  const link = escapeHtml(opts.link);
  const html = `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:24px;background:#f4f5f7;font-family:Inter,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1a202c;">
    <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;">
      <h1 style="font-size:20px;margin:0 0 16px;">Password recovery</h1>
      <p style="margin:0 0 16px;">We received a request to recover the password of the LitReview account <strong>${escapeHtml(opts.to)}</strong>.</p>
      <p style="margin:0 0 24px;">Choose a new password with the button below.</p>
      <p style="margin:0 0 24px;"><a href="${link}" style="display:inline-block;background:#2b6cb0;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;">Reset password</a></p>
      <p style="margin:0 0 16px;font-size:14px;">Or paste this link into your browser: <a href="${link}" style="color:#2b6cb0;word-break:break-all;">${link}</a></p>
      <p style="margin:0 0 16px;font-size:14px;">The link can be used once and expires in ${opts.validHours} hours.</p>
      <p style="margin:0;font-size:14px;color:#4a5568;">If you did not ask for this, ignore this message: your password stays as it is. Questions: ${escapeHtml(opts.supportEmail)}.</p>
    </div>
  </body>
</html>`;
  const text = [
    "Password recovery",
    "",
    `We received a request to recover the password of the LitReview account ${opts.to}.`,
    `Choose a new password here: ${opts.link}`,
    "",
    `The link can be used once and expires in ${opts.validHours} hours.`,
    `If you did not ask for this, ignore this message: your password stays as it is. Questions: ${opts.supportEmail}.`,
  ].join("\n");
  return { to: opts.to, subject, html, text };
}
