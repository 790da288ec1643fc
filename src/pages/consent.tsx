import { visuallyHidden } from "../../islands/lib/visually-hidden.css.ts";
import * as s from "./pages.css.ts";

// Markup of the cookie-consent controls. Their behaviour is in the inline page script (src/pages/page-script.js),
// which reads and stores the choice under localStorage `cookie_consent`; the stylesheet shows the banner from
// <html data-consent>. Server-rendered on every page, so no page needs an island for it.

/** id of the banner, which the page script looks up. */
export const COOKIE_BANNER_ID = "cookie-banner";

/**
 * The consent banner, in the interface's language (English), linking to the cookie policy (in French, docs/product.md
 * §2): what is stored, that no answer counts as refusal, and two equally weighted buttons, Refuse and Accept. Hidden by
 * the stylesheet unless no valid choice is stored or "Manage cookies" reopened it. It sits at the top of the page in
 * the normal flow, above the page: it pushes the page down instead of covering any of it (issue 8: it hid Sign Up,
 * Delete Account and the review history).
 */
export function CookieBanner() {
  return (
    <section id={COOKIE_BANNER_ID} className={s.cookieBanner} aria-labelledby="cookie-banner-title">
      <div className={s.cookieBannerText}>
        <p>
          <strong id="cookie-banner-title">Your cookie choices</strong>
        </p>
        <p>
          LitReview uses only its own cookies: the session token, which signing in needs, and, if you accept, a cookie
          that remembers the language you chose. If you do not answer, we take it that you refuse.{" "}
          <a href="/cookies" hrefLang="fr">
            Cookie policy (in French)
          </a>
        </p>
        <p id="cookie-consent-status" role="status" className={s.cookieBannerStatus} />
      </div>
      <div className={s.cookieBannerActions}>
        <button type="button" className={s.consentButton} data-action="consent-refuse">
          Refuse
        </button>
        <button type="button" className={s.consentButton} data-action="consent-accept">
          Accept
        </button>
      </div>
    </section>
  );
}

/**
 * "Manage cookies" (« Gérer mes cookies » in the French policy): reopens the banner to change or withdraw the choice
 * (shown in every page's footer). Labelled in the interface's language, English.
 */
export function ManageCookiesButton() {
  return (
    <button type="button" className={s.footerButton} data-action="consent-manage" aria-controls={COOKIE_BANNER_ID}>
      <svg
        aria-hidden="true"
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M12 2a10 10 0 1 0 10 10 4 4 0 0 1-5-5 4 4 0 0 1-5-5" />
        <path d="M8.5 8.5v.01M16 15.5v.01M12 12v.01M11 17v.01M7 14v.01" />
      </svg>
      Manage cookies
    </button>
  );
}

/**
 * The light/dark switch (docs/product.md §1: stored under `theme`, light by default). A toggle button: pressed means
 * dark. The page script keeps aria-pressed in step; the stylesheet shows a moon in light mode and a sun in dark mode.
 */
export function ThemeToggle() {
  return (
    <button type="button" className={s.iconButton} data-action="toggle-theme" aria-pressed="false" title="Dark theme">
      <span className={visuallyHidden}>Dark theme</span>
      <svg
        className={s.showInLight}
        aria-hidden="true"
        width="18"
        height="18"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
      </svg>
      <svg
        className={s.showInDark}
        aria-hidden="true"
        width="18"
        height="18"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </svg>
    </button>
  );
}
