import type { AppDeps } from "../deps.ts";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "../email/list-unsubscribe.ts";

/**
 * The weekly digest's one-click unsubscribe, which needs no login (the signed link the digest carries, RFC 8058), and
 * the origin of the links in e-mails. The digest's template is in emails.ts.
 */

const PURPOSE = "weekly-digest-unsubscribe" as const;

/**
 * A signed, non-expiring token that unsubscribes `userId` from the digest (HS256 with the server's key). It grants
 * nothing else; it keeps working after the session ends, as RFC 8058 expects of an unsubscribe link.
 */
export async function unsubscribeToken(secretKey: Uint8Array, userId: string): Promise<string> {
  return signUnsubscribeToken(secretKey, userId, PURPOSE);
}

/** The user id of a valid unsubscribe token, or null (forged, altered, another kind of token). */
export async function readUnsubscribeToken(secretKey: Uint8Array, token: string): Promise<string | null> {
  return verifyUnsubscribeToken(secretKey, token, PURPOSE);
}

/** The site's origin for links in e-mails: PUBLIC_URL, else the local server. */
export function siteOrigin(config: AppDeps["config"]): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}
