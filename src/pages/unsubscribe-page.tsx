import { PublicLayout, type Site } from "./layouts.tsx";
import * as s from "./pages.css.ts";

/** What an unsubscribe page shows: the confirmation button, the result, or a link that is not valid. */
export type UnsubscribeState = "confirm" | "done" | "invalid";

/** The words of one e-mail list's unsubscribe page, and the prefix of its elements' test ids. */
export interface UnsubscribeTexts {
  heading: string;
  confirm: string;
  done: string;
  /** Followed by the support address and a full stop. */
  invalid: string;
  testId: string;
}

/** The weekly suggestions digest (issue 11) and the share notification e-mails (src/shares/notify.ts). */
export const UNSUBSCRIBE_TEXTS = {
  digest: {
    heading: "Weekly suggestions digest",
    confirm:
      "Stop receiving the weekly e-mail with your suggested articles? Your suggestions stay available on the " +
      "Suggestions page.",
    done: "You are unsubscribed from the weekly digest. You can turn it back on in your settings.",
    invalid: "This unsubscribe link is not valid. Turn the digest off in your settings, or write to",
    testId: "unsubscribe",
  },
  shares: {
    heading: "E-mails about shared articles",
    confirm:
      "Stop the e-mail you get when someone shares an article with you? Shared articles stay under Received Shares " +
      "on your dashboard.",
    done:
      "You will no longer be e-mailed when someone shares an article with you. You can turn these e-mails back on in " +
      "your settings.",
    invalid: "This unsubscribe link is not valid. Turn these e-mails off in your settings, or write to",
    testId: "share-unsubscribe",
  },
} satisfies Record<string, UnsubscribeTexts>;

/**
 * An e-mail's unsubscribe link (`action`, with its token), usable without logging in. Opening it only asks to confirm
 * (link scanners open links too); the button, or a mail client's RFC 8058 one-click POST, unsubscribes.
 */
export function UnsubscribePage(props: {
  site: Site;
  state: UnsubscribeState;
  action: string;
  texts: UnsubscribeTexts;
}) {
  const { site, state, action, texts } = props;
  return (
    <PublicLayout site={site} headerLink={false}>
      <div className={s.notFound}>
        <div>
          <h1 className={s.pageTitle}>{texts.heading}</h1>
          {state === "confirm" ? (
            <form method="post" action={action}>
              <p className={s.lead}>{texts.confirm}</p>
              <button type="submit" className={s.button.primary} data-testid={`${texts.testId}-confirm`}>
                Unsubscribe
              </button>
            </form>
          ) : state === "done" ? (
            <p className={s.lead} data-testid={`${texts.testId}-done`}>
              {texts.done}
            </p>
          ) : (
            <p className={s.lead} data-testid={`${texts.testId}-invalid`}>
              {texts.invalid} {site.supportEmail}.
            </p>
          )}
        </div>
      </div>
    </PublicLayout>
  );
}
