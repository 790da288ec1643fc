import { PublicLayout, type Site } from "./layouts.tsx";
import { PrivacyPolicy, title as privacyTitle } from "./legal/PrivacyPolicy.tsx";
import { TermsOfUse, title as termsTitle } from "./legal/TermsOfUse.tsx";
import { CookiePolicy, title as cookiesTitle } from "./legal/CookiePolicy.tsx";
import * as s from "./pages.css.ts";
import { FrenchOriginalNote } from "./legal-english.tsx";

/** Cards of the landing page's features section (docs/product.md §2 /landing). */
export const LANDING_FEATURES = [
  {
    title: "Literature Review",
    text: "Enter a topic or keywords and get a summary of the most relevant articles, with numbered citations.",
  },
  { title: "Dashboard", text: "Keep the articles you like and the ones colleagues share with you in one place." },
  {
    title: "Personalized Suggestions",
    text: "Receive weekly article suggestions based on your research interests and the articles you like.",
  },
  {
    title: "And Many More to Come",
    text: "Deeper search and Q&A, figure and publication analysis, and notes are on the way.",
  },
] as const;

/** The founder shown in the landing page's team section (FOUNDER_NAME, FOUNDER_ROLE, FOUNDER_PHOTO_URL). */
export interface Founder {
  name: string;
  role?: string;
  photoUrl?: string;
}

/** The founder of a configuration, or null when FOUNDER_NAME is unset (the page then invents no one). */
export function founderOf(config: {
  FOUNDER_NAME?: string;
  FOUNDER_ROLE?: string;
  FOUNDER_PHOTO_URL?: string;
}): Founder | null {
  if (!config.FOUNDER_NAME) return null;
  return { name: config.FOUNDER_NAME, role: config.FOUNDER_ROLE, photoUrl: config.FOUNDER_PHOTO_URL };
}

/**
 * /landing: hero, features, the 36M+ claim, the team, call to action (docs/product.md §2). No script.
 * The team section holds the one founder card of the configuration; without a configured founder the whole section
 * is left out rather than showing a placeholder person or an empty heading.
 */
export function LandingPage({
  site,
  founder,
  heldRecords = null,
}: {
  site: Site;
  founder: Founder | null;
  heldRecords?: number | null;
}) {
  const { supportEmail } = site;
  // heldRecords is set when PubMed on demand is off: the claim is then what the local index holds, not all of PubMed.
  const scope =
    heldRecords === null
      ? "across more than 36 million articles"
      : `across the ${heldRecords.toLocaleString("en-US")} PubMed articles this server holds`;
  return (
    <PublicLayout site={site}>
      <section className={s.hero}>
        <h1 className={s.heroTitle}>The ultimate research tools for biomedical scientists.</h1>
        <p className={s.heroText}>
          {`Review the literature, follow what matters to you and discover new work, ${scope}.`}
        </p>
        <a href="/login" className={s.button.primary}>
          Get Started
        </a>
      </section>
      <section className={s.section} aria-labelledby="features-title">
        <h2 id="features-title" className={s.sectionTitle}>
          Features
        </h2>
        <div className={s.cardGrid}>
          {LANDING_FEATURES.map((f) => (
            <article key={f.title} className={s.card}>
              <h3 className={s.cardTitle}>{f.title}</h3>
              <p className={s.cardText}>{f.text}</p>
            </article>
          ))}
        </div>
        <div className={s.statBlock}>
          <p className={s.stat}>{heldRecords === null ? "36M+" : heldRecords.toLocaleString("en-US")}</p>
          <p className={s.cardText}>
            {heldRecords === null ? "biomedical articles to search" : "biomedical articles on this server to search"}
          </p>
        </div>
      </section>
      {founder ? (
        <section className={s.section} aria-labelledby="team-title">
          <h2 id="team-title" className={s.sectionTitle}>
            Our Team
          </h2>
          <article className={s.teamCard}>
            {founder.photoUrl ? (
              <img
                className={s.founderPhoto}
                src={founder.photoUrl}
                alt={founder.name}
                width={96}
                height={96}
                loading="lazy"
                referrerPolicy="no-referrer"
              />
            ) : null}
            <h3 className={s.cardTitle}>{founder.name}</h3>
            {founder.role ? <p className={s.cardText}>{founder.role}</p> : null}
          </article>
        </section>
      ) : null}
      <section className={s.cta} aria-labelledby="cta-title">
        <h2 id="cta-title" className={s.sectionTitle}>
          Ready to Get Started?
        </h2>
        <div className={s.ctaActions}>
          <a href="/login" className={s.button.primary}>
            Get Started Now
          </a>
          <a href="/pricing" className={s.button.outline}>
            See Pricing
          </a>
          <a href={`mailto:${supportEmail}`} className={s.button.outline}>
            Contact Us
          </a>
        </div>
      </section>
    </PublicLayout>
  );
}

/** The French legal pages: path segment → title and body. The publisher is COMPANY_NAME. */
export const LEGAL_PAGES = {
  privacy: {
    title: privacyTitle,
    Body: ({ site }: { site: Site }) => (
      <PrivacyPolicy companyName={site.companyName} contactEmail={site.supportEmail} />
    ),
  },
  legal: {
    title: termsTitle,
    Body: ({ site }: { site: Site }) => <TermsOfUse companyName={site.companyName} contactEmail={site.supportEmail} />,
  },
  cookies: {
    title: cookiesTitle,
    Body: ({ site }: { site: Site }) => <CookiePolicy contactEmail={site.supportEmail} />,
  },
} as const;

/**
 * /privacy, /legal, /cookies: the French policies (the governing texts), with the support address as contact point,
 * under a note linking to the English reading version.
 */
export function LegalPage({ page, site }: { page: keyof typeof LEGAL_PAGES; site: Site }) {
  const { Body } = LEGAL_PAGES[page];
  return (
    <PublicLayout site={site}>
      <FrenchOriginalNote page={page} />
      <div className={s.prose} lang="fr">
        <Body site={site} />
      </div>
    </PublicLayout>
  );
}

/**
 * The not-found page (docs/product.md §2): large 404, 'Oops!', the message and a Go Back link to /, inside the public
 * layout so that it also has the theme toggle, the footer with "Manage cookies" and the help button.
 */
export function NotFoundPage({ site }: { site: Site }) {
  return (
    <PublicLayout site={site} headerLink={false}>
      <div className={s.notFound}>
        <div>
          <p className={s.notFoundCode}>404</p>
          <h1 className={s.pageTitle}>Oops!</h1>
          <p className={s.lead}>The page you are looking for was not found.</p>
          <a href="/" className={s.button.outline}>
            Go Back
          </a>
        </div>
      </div>
    </PublicLayout>
  );
}
