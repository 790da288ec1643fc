import type { ReactNode } from "react";
import type { CurrentUser } from "../auth/middleware.ts";
import { NavMenus } from "../../islands/nav/NavMenus.tsx";
import { Island } from "./island.tsx";
import * as s from "./pages.css.ts";

/** Islands every page of the authenticated layout renders (declare them with the page's own). */
export const APP_LAYOUT_ISLANDS = ["NavMenus"] as const;

/** Text of the banner shown on every signed-in page (spec §1). */
export const MIGRATION_NOTICE =
  "This application is under migration and development: older features will be reimplemented progressively, performance may be affected and some data may be missing.";

/** The help button of every page (spec §1): the support contact, in a <details> so it needs no script. */
export function HelpButton({ supportEmail }: { supportEmail: string }) {
  return (
    <details className={s.help}>
      <summary className={s.helpButton} aria-label="Help">
        ?
      </summary>
      <div className={s.helpPanel}>
        <strong>Need help?</strong>
        <p style={{ margin: "4px 0 0" }}>
          Contact our support team at <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
        </p>
      </div>
    </details>
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
 * The authenticated layout (spec §2): top bar (from the medium breakpoint up) with the logo and the menus island,
 * the migration banner, and a scrolling content area.
 */
export function AppLayout({
  user,
  supportEmail,
  fullWidth = false,
  children,
}: {
  user: CurrentUser;
  supportEmail: string;
  /** The page uses the whole content area (the review workspace has its own sidebar and padding). */
  fullWidth?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={s.appShell}>
      <header className={s.topBar}>
        <Logo />
        <nav aria-label="Main" className={s.topBarActions}>
          <Island name="NavMenus" component={NavMenus} props={{ userName: user.full_name }} />
        </nav>
      </header>
      <div role="note" className={s.banner}>
        {MIGRATION_NOTICE}
      </div>
      <main className={s.content}>{fullWidth ? children : <div className={s.container}>{children}</div>}</main>
      <HelpButton supportEmail={supportEmail} />
    </div>
  );
}

/** The footer of public pages (spec §2): copyright year and the legal links. */
export function PublicFooter({ year = new Date().getFullYear() }: { year?: number }) {
  return (
    <footer className={s.footer}>
      <span>{`© ${year} LitReview. All rights reserved.`}</span>
      <nav aria-label="Legal">
        <ul className={s.footerLinks}>
          <li>
            <a href="/legal">Legal</a>
          </li>
          <li>
            <a href="/privacy">Privacy</a>
          </li>
          <li>
            <a href="/cookies">Cookies</a>
          </li>
        </ul>
      </nav>
    </footer>
  );
}

/** Layout of public pages: a header with the logo and a login link, the page, the footer and the help button. */
export function PublicLayout({ supportEmail, children, headerLink = true }: { supportEmail: string; children: ReactNode; headerLink?: boolean }) {
  return (
    <div className={s.publicShell}>
      <header className={s.publicHeader}>
        <Logo />
        {headerLink ? (
          <a href="/login" className={s.button.outline}>
            Log In
          </a>
        ) : null}
      </header>
      <main className={s.publicMain}>{children}</main>
      <PublicFooter />
      <HelpButton supportEmail={supportEmail} />
    </div>
  );
}
