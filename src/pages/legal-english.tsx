import type { ReactNode } from "react";
import { PublicLayout, type Site } from "./layouts.tsx";
import { CookiePolicyEn, title as cookiesTitle } from "./legal/en/CookiePolicyEn.tsx";
import { PrivacyPolicyEn, title as privacyTitle } from "./legal/en/PrivacyPolicyEn.tsx";
import { TermsOfUseEn, title as termsTitle } from "./legal/en/TermsOfUseEn.tsx";
import * as s from "./pages.css.ts";
import * as l from "./legal-english.css.ts";

/**
 * English reading versions of the French legal pages (docs/decisions/0036-first-hour.md): /privacy/en, /legal/en,
 * /cookies/en. The French texts at /privacy, /legal, /cookies stay the governing versions; every English page says
 * so at its top and links back, and every French page links to its translation.
 */
type BodyProps = { site: Site };

export const LEGAL_PAGES_EN = {
  privacy: {
    title: privacyTitle,
    Body: ({ site }: BodyProps) => <PrivacyPolicyEn companyName={site.companyName} contactEmail={site.supportEmail} />,
  },
  legal: {
    title: termsTitle,
    Body: ({ site }: BodyProps) => <TermsOfUseEn companyName={site.companyName} contactEmail={site.supportEmail} />,
  },
  cookies: { title: cookiesTitle, Body: ({ site }: BodyProps) => <CookiePolicyEn contactEmail={site.supportEmail} /> },
} as const;

/** The note that opens an English legal page: a translation, for reading only; the French text governs. */
export function TranslationNote({ page }: { page: keyof typeof LEGAL_PAGES_EN }) {
  return (
    <aside className={l.languageNote} aria-label="About this translation" data-testid="translation-note">
      <strong>English translation, for reading only.</strong> The French version is the only governing version: in case
      of any difference between the two, the French text prevails.{" "}
      <a href={`/${page}`} hrefLang="fr">
        Read the French version
      </a>
    </aside>
  );
}

/** The note above a French legal page, in the interface's language, linking to its English reading version. */
export function FrenchOriginalNote({ page }: { page: keyof typeof LEGAL_PAGES_EN }) {
  return (
    <aside className={l.languageNote} aria-label="Language of this page">
      This page is in French, the governing version.{" "}
      <a href={`/${page}/en`} hrefLang="en">
        Read the English translation
      </a>
    </aside>
  );
}

/** /privacy/en, /legal/en, /cookies/en: the translation note, then the English text. */
export function LegalPageEnglish({ page, site }: { page: keyof typeof LEGAL_PAGES_EN; site: Site }): ReactNode {
  const { Body } = LEGAL_PAGES_EN[page];
  return (
    <PublicLayout site={site}>
      <TranslationNote page={page} />
      <div className={s.prose}>
        <Body site={site} />
      </div>
    </PublicLayout>
  );
}
