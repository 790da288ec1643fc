import { PublicLayout, type Site } from "./layouts.tsx";
import * as s from "./pages.css.ts";

/** What /unsubscribe/shares shows: the confirmation button, the result, or a link that is not valid. */
export type ShareUnsubscribeState = "confirm" | "done" | "invalid";

/**
 * /unsubscribe/shares?token=…: the one-click link of share notification e-mails, usable without logging in. Opening
 * it only asks to confirm (link scanners open links too); the button, or a mail client's RFC 8058 one-click POST,
 * turns share e-mails off. Shares keep appearing under Received Shares.
 */
export function ShareUnsubscribePage(props: { site: Site; state: ShareUnsubscribeState; token: string }) {
  const { site, state, token } = props;
  return (
    <PublicLayout site={site} headerLink={false}>
      <div className={s.notFound}>
        <div>
          <h1 className={s.pageTitle}>E-mails about shared articles</h1>
          {state === "confirm" ? (
            <form method="post" action={`/unsubscribe/shares?token=${encodeURIComponent(token)}`}>
              <p className={s.lead}>
                Stop the e-mail you get when someone shares an article with you? Shared articles stay under Received
                Shares on your dashboard.
              </p>
              <button type="submit" className={s.button.primary} data-testid="share-unsubscribe-confirm">
                Unsubscribe
              </button>
            </form>
          ) : state === "done" ? (
            <p className={s.lead} data-testid="share-unsubscribe-done">
              You will no longer be e-mailed when someone shares an article with you. You can turn these e-mails back on
              in your settings.
            </p>
          ) : (
            <p className={s.lead} data-testid="share-unsubscribe-invalid">
              This unsubscribe link is not valid. Turn these e-mails off in your settings, or write to{" "}
              {site.supportEmail}.
            </p>
          )}
        </div>
      </div>
    </PublicLayout>
  );
}
