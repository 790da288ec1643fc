import { createContext, use, type ReactNode } from "react";
import type { CurrentUser } from "../auth/middleware.ts";
import type { Config } from "../config.ts";
import { NavMenus } from "../../islands/nav/NavMenus.tsx";
import { Island } from "./island.tsx";
import { ManageCookiesButton, ThemeToggle } from "./consent.tsx";
import * as s from "./pages.css.ts";
import { visuallyHidden } from "../../islands/lib/visually-hidden.css.ts";

/** What every page shows about the site itself: the support contact and the publisher. */
export interface Site {
  /** The help button's contact and the legal pages' contact point (SUPPORT_EMAIL). */
  supportEmail: string;
  /** The publisher named in the footer and the legal pages (COMPANY_NAME). */
  companyName: string;
}

/** The Site of a configuration. */
export function siteOf(config: Pick<Config, "SUPPORT_EMAIL" | "COMPANY_NAME">): Site {
  return { supportEmail: config.SUPPORT_EMAIL, companyName: config.COMPANY_NAME };
}

/** Islands every page of the authenticated layout renders (declare them with the page's own). */
export const APP_LAYOUT_ISLANDS = ["NavMenus"] as const;

/** Text of the banner shown on every signed-in page (docs/product.md §1). */
export const MIGRATION_NOTICE =
  "This application is under migration and development: older features will be reimplemented progressively, performance may be affected and some data may be missing.";

/**
 * The migration banner (docs/product.md §1). On a phone it is folded to one line until the visitor unfolds it (issue
 * 35): the page script keeps the choice (localStorage `banner_collapsed`, <html data-banner-collapsed>) and the
 * button's aria-expanded; the stylesheet shows the button and the folded line only below the medium breakpoint.
 */
export function MigrationBanner() {
  return (
    <div role="note" className={s.banner} aria-label="Migration notice">
      <p id="migration-notice" className={s.bannerText}>
        {MIGRATION_NOTICE}
      </p>
      <button
        type="button"
        className={s.bannerToggle}
        data-action="toggle-banner"
        aria-expanded="false"
        aria-controls="migration-notice"
      >
        <span className={s.bannerWhenOpen}>Show less</span>
        <span className={s.bannerWhenFolded}>Show more</span>
      </button>
    </div>
  );
}

/**
 * The help button of every page (docs/product.md §1): the support contact, in a <details> so it needs no script (the
 * page's inline script adds Escape to close it, src/pages/page-script.js).
 */
export function HelpButton({ supportEmail }: { supportEmail: string }) {
  return (
    <details className={s.help} data-help="">
      <summary className={s.helpButton} aria-label="Help">
        ?
      </summary>
      <div className={s.helpPanel}>
        <strong>Need help?</strong>
        <p className={s.helpText}>
          Contact our support team at <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
        </p>
      </div>
    </details>
  );
}

/** The id of every page's <main>, the skip link's target. */
export const MAIN_ID = "main-content";

/** 'Skip to main content' (issue 24), first in every layout, shown when focused (styles: pages.css.ts skipLink). */
export function SkipLink() {
  return (
    <a href={`#${MAIN_ID}`} className={s.skipLink} data-testid="skip-link">
      Skip to main content
    </a>
  );
}

/** The product's logo, linking to the entry route. */
export function Logo() {
  return (
    <a href="/" className={s.logo} aria-label="LitReview home">
      <span className={s.logoMark} aria-hidden="true">
        LR
      </span>
      <span>LitReview</span>
    </a>
  );
}

/**
 * The footer of every page (docs/product.md §2): copyright year, the pricing link, the legal links (to the French
 * texts, which govern; each links to its English reading version) and the cookie-choice button, labelled in the
 * interface's language ("Manage cookies").
 */
export function SiteFooter({ companyName, year = new Date().getFullYear() }: { companyName: string; year?: number }) {
  return (
    <footer className={s.footer}>
      <span>{`© ${year} ${companyName}. All rights reserved.`}</span>
      <nav aria-label="Legal">
        <ul className={s.footerLinks}>
          <li>
            <a href="/pricing">Pricing</a>
          </li>
          <li>
            <a href="/legal" hrefLang="fr">
              Legal
            </a>
          </li>
          <li>
            <a href="/privacy" hrefLang="fr">
              Privacy
            </a>
          </li>
          <li>
            <a href="/cookies" hrefLang="fr">
              Cookies
            </a>
          </li>
          <li>
            <ManageCookiesButton />
          </li>
        </ul>
      </nav>
    </footer>
  );
}

/**
 * The authenticated layout (docs/product.md §2). From the medium breakpoint up: the top bar with the logo, the Tools
 * and user menus and the theme toggle. Below it, where docs/product.md hides the top bar, a compact bar takes its place
 * so that small screens keep every destination: logo, theme toggle and one "Menu" holding the same entries. Then the
 * migration banner and a scrolling content area that ends with the footer; the help button floats over it.
 */
export function AppLayout({
  user,
  site,
  fullWidth = false,
  children,
}: {
  user: CurrentUser;
  site: Site;
  /** The page uses the whole content area (the review workspace has its own sidebar and padding). */
  fullWidth?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={s.appShell}>
      <SkipLink />
      <header className={s.topBar}>
        <Logo />
        <div className={s.headerActions}>
          <nav aria-label="Main">
            <Island name="NavMenus" component={NavMenus} props={{ userName: user.full_name }} />
          </nav>
          <ThemeToggle />
        </div>
      </header>
      <header className={s.compactBar}>
        <Logo />
        <div className={s.headerActions}>
          <ThemeToggle />
          <nav aria-label="Main menu">
            <Island name="NavMenus" component={NavMenus} props={{ userName: user.full_name, compact: true }} />
          </nav>
        </div>
      </header>
      <MigrationBanner />
      <div className={s.content}>
        <main id={MAIN_ID} tabIndex={-1} className={fullWidth ? s.fullWidthMain : s.container}>
          {children}
        </main>
        <SiteFooter companyName={site.companyName} />
      </div>
      <HelpButton supportEmail={site.supportEmail} />
    </div>
  );
}

/** Who is looking at a public page, when signed in (the session cookie names an active account). */
export interface Viewer {
  /** The name the app's user menu shows: the full name, else the e-mail address. */
  name: string;
}

/** The viewer of the page being rendered (src/pages/render.tsx provides it; null for a visitor). */
export const ViewerContext = createContext<Viewer | null>(null);

/** The Viewer of a signed-in user. */
export function viewerOf(user: Pick<CurrentUser, "full_name" | "email">): Viewer {
  return { name: user.full_name?.trim() || user.email };
}

/**
 * Layout of public pages: a header with the logo, the theme toggle and a login link, the page, the footer and the help
 * button. A signed-in viewer (ViewerContext) sees who is signed in and a link back to /home instead of the login link
 * (issue 35: /privacy, /pricing and the legal pages showed "Log In" to a signed-in user).
 */
export function PublicLayout({
  site,
  children,
  headerLink = true,
}: {
  site: Site;
  children: ReactNode;
  headerLink?: boolean;
}) {
  const viewer = use(ViewerContext);
  return (
    <div className={s.publicShell}>
      <SkipLink />
      <header className={s.publicHeader}>
        <Logo />
        <div className={s.headerActions}>
          <ThemeToggle />
          {viewer ? (
            <>
              <span className={s.signedInAs} data-testid="signed-in-as" title={viewer.name} aria-hidden="true">
                {`Signed in as ${viewer.name}`}
              </span>
              <a href="/home" className={s.button.outline} data-testid="signed-in-home">
                Home
                <span className={visuallyHidden}>{` (signed in as ${viewer.name})`}</span>
              </a>
            </>
          ) : headerLink ? (
            <a href="/login" className={s.button.outline}>
              Log In
            </a>
          ) : null}
        </div>
      </header>
      <main id={MAIN_ID} tabIndex={-1} className={s.publicMain}>
        {children}
      </main>
      <SiteFooter companyName={site.companyName} />
      <HelpButton supportEmail={site.supportEmail} />
    </div>
  );
}
