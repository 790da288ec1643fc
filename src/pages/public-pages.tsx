import { HelpButton, PublicLayout } from "./layouts.tsx";
import { PrivacyPolicy, title as privacyTitle } from "./legal/PrivacyPolicy.tsx";
import { TermsOfUse, title as termsTitle } from "./legal/TermsOfUse.tsx";
import { CookiePolicy, title as cookiesTitle } from "./legal/CookiePolicy.tsx";
import * as s from "./pages.css.ts";

/** Cards of the landing page's features section (spec §2 /landing). */
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
  { title: "And Many More to Come", text: "Deeper search and Q&A, figure and publication analysis, and notes are on the way." },
] as const;

/** /landing: hero, features, team, call to action (spec §2). No script. */
export function LandingPage({ supportEmail }: { supportEmail: string }) {
  return (
    <PublicLayout supportEmail={supportEmail}>
      <section className={s.hero}>
        <h1 className={s.heroTitle}>The ultimate research tools for biomedical scientists.</h1>
        <p className={s.heroText}>
          Review the literature, follow what matters to you and discover new work, across more than 36 million articles.
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
        <div style={{ textAlign: "center", marginTop: 32 }}>
          <p className={s.stat}>36M+</p>
          <p className={s.cardText}>biomedical articles to search</p>
        </div>
      </section>
      <section className={s.section} aria-labelledby="team-title">
        <h2 id="team-title" className={s.sectionTitle}>
          Our Team
        </h2>
        <article className={s.card} style={{ maxWidth: 360, margin: "0 auto", textAlign: "center" }}>
          <h3 className={s.cardTitle}>Founder</h3>
          <p className={s.cardText}>Building the research tools biomedical scientists need.</p>
        </article>
      </section>
      <section className={s.cta} aria-labelledby="cta-title">
        <h2 id="cta-title" className={s.sectionTitle}>
          Ready to Get Started?
        </h2>
        <div className={s.ctaActions}>
          <a href="/login" className={s.button.primary}>
            Get Started Now
          </a>
          <a href={`mailto:${supportEmail}`} className={s.button.outline}>
            Contact Us
          </a>
        </div>
      </section>
    </PublicLayout>
  );
}

/** Name of the publisher shown in the legal pages (the data controller and party to the terms). */
export const PUBLISHER = "LitReview";

/** The French legal pages: path segment → title and body. */
export const LEGAL_PAGES = {
  privacy: { title: privacyTitle, Body: ({ email }: { email: string }) => <PrivacyPolicy companyName={PUBLISHER} contactEmail={email} /> },
  legal: { title: termsTitle, Body: ({ email }: { email: string }) => <TermsOfUse companyName={PUBLISHER} contactEmail={email} /> },
  cookies: { title: cookiesTitle, Body: ({ email }: { email: string }) => <CookiePolicy contactEmail={email} /> },
} as const;

/** /privacy, /legal, /cookies: the French policies, with the support address as contact point. */
export function LegalPage({ page, supportEmail }: { page: keyof typeof LEGAL_PAGES; supportEmail: string }) {
  const { Body } = LEGAL_PAGES[page];
  return (
    <PublicLayout supportEmail={supportEmail}>
      <div className={s.prose} lang="fr">
        <Body email={supportEmail} />
      </div>
    </PublicLayout>
  );
}

/** The not-found page (spec §2): large 404, 'Oops!', the message and a Go Back link to /, plus the help button. */
export function NotFoundPage({ supportEmail }: { supportEmail: string }) {
  return (
    <>
      <main className={s.notFound}>
        <div>
          <p className={s.notFoundCode}>404</p>
          <h1 className={s.pageTitle}>Oops!</h1>
          <p className={s.lead}>The page you are looking for was not found.</p>
          <a href="/" className={s.button.outline}>
            Go Back
          </a>
        </div>
      </main>
      <HelpButton supportEmail={supportEmail} />
    </>
  );
}
