/**
 * What every e-mail's HTML shares. The templates themselves live with the feature that sends them, in
 * <feature>/emails.ts (auth, shares, subscriptions, privacy, suggestions):
 * docs/decisions/0004-rate-limits-and-email.md, "Where templates live".
 */

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );
}
