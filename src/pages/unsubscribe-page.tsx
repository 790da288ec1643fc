import { PublicLayout, type Site } from "./layouts.tsx";
import * as s from "./pages.css.ts";

/** What /unsubscribe shows: the confirmation button, the result, or a link that is not valid. */
export type UnsubscribeState = "confirm" | "done" | "invalid";

/**
 * /unsubscribe?token=… (issue 11): the weekly digest's unsubscribe link, usable without logging in. Opening it only
 * asks to confirm (link scanners open links too); the button, or a mail client's RFC 8058 one-click POST, unsubscribes.
 */
export function UnsubscribePage({ site, state, token }: { site: Site; state: UnsubscribeState; token: string }) {
  return (
    <PublicLayout site={site} headerLink={false}>
      <div className={s.notFound}>
        <div>
          <h1 className={s.pageTitle}>Weekly suggestions digest</h1>
          {state === "confirm" ? (
            <form method="post" action={`/unsubscribe?token=${encodeURIComponent(token)}`}>
              <p className={s.lead}>
                Stop receiving the weekly e-mail with your suggested articles? Your suggestions stay available on the
                Suggestions page.
              </p>
              <button type="submit" className={s.button.primary} data-testid="unsubscribe-confirm">
                Unsubscribe
              </button>
            </form>
          ) : state === "done" ? (
            <p className={s.lead} data-testid="unsubscribe-done">
              You are unsubscribed from the weekly digest. You can turn it back on in your settings.
            </p>
          ) : (
            <p className={s.lead} data-testid="unsubscribe-invalid">
              This unsubscribe link is not valid. Turn the digest off in your settings, or write to {site.supportEmail}.
            </p>
          )}
        </div>
      </div>
    </PublicLayout>
  );
}
