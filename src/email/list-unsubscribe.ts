import { SignJWT, jwtVerify } from "jose";

/**
 * One-click unsubscribe for e-mail a user can turn off (RFC 8058; RFC 2369 for List-Unsubscribe): a signed link in
 * the body and two headers, so that a mail client can unsubscribe by POSTing "List-Unsubscribe=One-Click" to the
 * link, with no login. The weekly digest (src/suggestions/digest.ts) and share notifications (src/shares/) use it.
 */

/** Which kind of e-mail a token turns off; the purpose is signed, so a digest token cannot stop share e-mails. */
export type UnsubscribePurpose = "weekly-digest-unsubscribe" | "share-email-unsubscribe";

/**
 * A signed, non-expiring token that turns off `purpose` mail for `userId` (HS256 with the server's key). It grants
 * nothing else and keeps working after the session ends, as RFC 8058 expects of an unsubscribe link.
 */
export async function signUnsubscribeToken(
  secretKey: Uint8Array,
  userId: string,
  purpose: UnsubscribePurpose,
): Promise<string> {
  return new SignJWT({ purpose }).setProtectedHeader({ alg: "HS256" }).setSubject(userId).setIssuedAt().sign(secretKey);
}

/** The user id of a valid token of `purpose`, or null (forged, altered, another purpose, another kind of token). */
export async function verifyUnsubscribeToken(
  secretKey: Uint8Array,
  token: string,
  purpose: UnsubscribePurpose,
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, secretKey, { algorithms: ["HS256"] });
    return payload.purpose === purpose && typeof payload.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}

/**
 * The headers of RFC 8058 §3.1 for an HTTPS unsubscribe link: List-Unsubscribe with the link in angle brackets, and
 * List-Unsubscribe-Post saying that a POST of "List-Unsubscribe=One-Click" to it unsubscribes.
 */
export function listUnsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}
