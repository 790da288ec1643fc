import { describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import { CookiePolicy, title as cookieTitle } from "./CookiePolicy.tsx";
import { PrivacyPolicy, title as privacyTitle } from "./PrivacyPolicy.tsx";
import { TermsOfUse, title as termsTitle } from "./TermsOfUse.tsx";

const companyName = "Éditeur Exemple SAS";
const contactEmail = "donnees@exemple.test";

/** Rendered HTML reduced to plain text, with typographic apostrophes and non-breaking spaces normalised. */
function toText(html: string): string {
  return html
    .replace(/<!--.*?-->/gs, "")
    .replace(/<\/?(?:a|strong|em|code)\b[^>]*>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
    .replace(/&nbsp;/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/[\u2019]/g, "'")
    .replace(/[\u00a0\u202f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function headings(html: string, level: 1 | 2): string[] {
  const re = new RegExp(`<h${level}[^>]*>(.*?)</h${level}>`, "gs");
  return [...html.matchAll(re)].map((m) => toText(m[1] ?? ""));
}

function wordCount(text: string): number {
  return text.split(" ").filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

const pages = [
  {
    name: "PrivacyPolicy",
    title: privacyTitle,
    html: renderToString(<PrivacyPolicy companyName={companyName} contactEmail={contactEmail} />),
  },
  {
    name: "TermsOfUse",
    title: termsTitle,
    html: renderToString(<TermsOfUse companyName={companyName} contactEmail={contactEmail} />),
  },
  { name: "CookiePolicy", title: cookieTitle, html: renderToString(<CookiePolicy contactEmail={contactEmail} />) },
];

describe("legal pages: common structure", () => {
  for (const page of pages) {
    test(`${page.name} is a plain semantic article`, () => {
      expect(page.html.startsWith("<article>")).toBe(true);
      expect(page.html).not.toContain("<script");
      expect(page.html).not.toContain("class=");
      expect(page.html).not.toContain("style=");
    });

    test(`${page.name} has its title as the only h1`, () => {
      expect(headings(page.html, 1)).toEqual([toText(page.title)]);
    });

    test(`${page.name} numbers its section headings 1, 2, 3…`, () => {
      const h2 = headings(page.html, 2);
      expect(h2.length).toBeGreaterThanOrEqual(5);
      for (const [i, h] of h2.entries()) expect(h.startsWith(`${i + 1}. `)).toBe(true);
    });

    test(`${page.name} shows the contact e-mail from props`, () => {
      expect(toText(page.html)).toContain(contactEmail);
      expect(page.html).toContain(`href="mailto:${contactEmail}"`);
    });

    test(`${page.name} is complete but readable (600–1200 words)`, () => {
      const words = wordCount(toText(page.html));
      expect(words).toBeGreaterThanOrEqual(600);
      expect(words).toBeLessThanOrEqual(1200);
    });

    test(`${page.name} uses French quotation marks, not straight double quotes, in its text`, () => {
      expect(toText(page.html)).not.toContain('"');
    });
  }

  test("titles", () => {
    expect(toText(privacyTitle)).toBe("Politique de confidentialité");
    expect(toText(termsTitle)).toBe("Conditions générales d'utilisation");
    expect(toText(cookieTitle)).toBe("Politique relative aux cookies");
  });
});

describe("PrivacyPolicy", () => {
  const text = toText(pages[0]!.html);

  test("effective date in the product's exact form", () => {
    expect(text).toContain("Date d'entrée en vigueur : 01.01.2023");
  });

  test("data controller is the publisher from props", () => {
    expect(text).toContain("Responsable du traitement");
    expect(text).toContain(`Le responsable du traitement est ${companyName}, éditeur de LitReview`);
  });

  test("data categories", () => {
    for (const s of [
      "nom complet",
      "adresse e-mail institutionnelle",
      "forme hachée",
      "Centres d'intérêt",
      "Articles aimés et partages",
      "Historique des revues de littérature",
      "Abonnement et facturation",
      "prestataire de paiement",
      "Données techniques de connexion",
    ]) {
      expect(text).toContain(s);
    }
  });

  test("legal bases", () => {
    for (const s of [
      "Exécution du contrat",
      "Intérêt légitime",
      "cookies non essentiels",
      "Consentement",
      "Obligations légales",
    ]) {
      expect(text).toContain(s);
    }
  });

  test("retention periods (docs/product.md §9)", () => {
    expect(text).toContain("un compte inactif depuis 2 ans est supprimé");
    expect(text).toContain("5 ans en archive");
    expect(text).toContain("Données de prospects 3 ans");
  });

  test("recipients", () => {
    for (const s of ["personnel habilité", "sous-traitants", "hébergeur", "Stripe", "service d'envoi d'e-mails"]) {
      expect(text).toContain(s);
    }
  });

  test("hosting in a Paris-region cloud", () => {
    expect(text).toContain("cloud situé en région parisienne (France, Union européenne)");
  });

  test("GDPR rights and how to exercise them", () => {
    for (const s of [
      "droit d'accès",
      "droit de rectification",
      "droit à l'effacement",
      "droit à la limitation",
      "droit d'opposition",
      "droit à la portabilité",
      "retirer votre consentement",
      "directives post-mortem",
      "réclamation auprès de la Commission nationale de l'informatique et des libertés (CNIL)",
      "dans un délai d'un mois",
    ]) {
      expect(text).toContain(s);
    }
  });

  test("security section", () => {
    expect(headings(pages[0]!.html, 2)).toContain("9. Sécurité");
  });
});

describe("TermsOfUse", () => {
  const html = pages[1]!.html;
  const text = toText(html);

  test("effective date in the product's exact form", () => {
    expect(text).toContain("Date d'entrée en vigueur : 01/01/2023");
  });

  test("covers every required section", () => {
    const h2 = headings(html, 2).map((h) => h.replace(/^\d+\. /, ""));
    for (const s of [
      "Définitions",
      "Les outils du Service",
      "Création et désactivation du compte",
      "Obligations de l'utilisateur",
      "Responsabilité",
      "Propriété intellectuelle",
      "Données personnelles",
      "Publicité",
      "Référence commerciale",
      "Liens vers des sites tiers",
      "Modification des conditions",
      "Droit applicable et juridiction",
    ]) {
      expect(h2).toContain(s);
    }
  });

  test("professional individual users, accounts initiated by a subscribing institution", () => {
    expect(text).toContain("utilisateurs individuels agissant dans un cadre professionnel");
    expect(text).toContain("Les comptes sont initiés par un Établissement titulaire d'un abonnement");
  });

  test("four tools", () => {
    expect(text).toContain("quatre outils");
    for (const s of [
      "la revue de littérature",
      "le carnet de notes (notebook)",
      "la place de marché (marketplace)",
      "l'application",
    ]) {
      expect(text).toContain(s);
    }
  });

  test("liability: no medical advice, summaries to be checked against sources", () => {
    expect(text).toContain("ne fournit aucun avis médical");
    expect(text).toContain("générées automatiquement à partir des résumés des articles");
    expect(text).toContain("vérifiées par l'Utilisateur au regard des sources citées");
  });

  test("intellectual property of PubMed records and abstracts", () => {
    expect(text).toContain("National Library of Medicine (NLM)");
    expect(text).toContain("demeurent le texte de leurs auteurs et éditeurs");
  });

  test("links to the privacy and cookie policies", () => {
    expect(html).toContain('href="/privacy"');
    expect(html).toContain('href="/cookies"');
  });

  test("commercial reference unless the institution objects", () => {
    expect(text).toContain("comme référence client");
    expect(text).toContain("sauf opposition de l'Établissement");
  });

  test("changes apply 15 days after e-mail notice", () => {
    expect(text).toContain("notifiée par e-mail");
    expect(text).toContain("15 jours après cette notification");
  });

  test("French law and Paris courts", () => {
    expect(text).toContain("soumises au droit français");
    expect(text).toContain("tribunaux de Paris");
  });

  test("publisher from props", () => {
    expect(text).toContain(`${companyName}, éditeur de LitReview`);
  });
});

describe("CookiePolicy", () => {
  const html = pages[2]!.html;
  const text = toText(html);

  test("effective date", () => {
    expect(text).toContain("Date d'entrée en vigueur : 01/01/2023");
  });

  test("what a cookie is and what ours are for", () => {
    expect(text).toContain("Qu'est-ce qu'un cookie ?");
    expect(text).toContain("uniquement pour l'authentification des utilisateurs et pour mémoriser la langue choisie");
  });

  test("table of the two internal session cookies", () => {
    const rows = [...html.matchAll(/<tbody>(.*?)<\/tbody>/gs)].flatMap((m) => [
      ...(m[1] ?? "").matchAll(/<tr>(.*?)<\/tr>/gs),
    ]);
    expect(rows.length).toBe(2);
    const [token, lang] = rows.map((r) => toText(r[1] ?? ""));
    expect(token).toContain("access_token");
    expect(token).toContain("Jeton d'accès pour la session");
    expect(token).toContain("authentification");
    expect(token).toContain("cookie interne");
    expect(token).toMatch(/La session$/);
    expect(lang).toContain("lang");
    expect(lang).toContain("Mémorise la langue choisie");
    expect(lang).toContain("cookie interne");
    expect(lang).toMatch(/La session$/);
  });

  test("consent banner: accept or refuse, no answer counts as refusal", () => {
    expect(text).toContain("de les accepter ou de les refuser");
    expect(text).toContain("l'absence de réponse vaut refus");
  });

  test("« Gérer mes cookies » icon on every page to withdraw consent", () => {
    expect(text).toContain("Une icône « Gérer mes cookies » est présente sur chaque page");
    expect(text).toContain("à tout moment, de retirer le consentement");
  });

  test("browser settings for Chrome, Firefox, Safari and Edge", () => {
    for (const s of ["Google Chrome", "Mozilla Firefox", "Safari", "Microsoft Edge"]) {
      expect(text).toContain(s);
    }
    expect(html).not.toMatch(/href="https?:/);
  });

  test("rights exercisable by e-mail", () => {
    for (const s of ["droit d'accès", "rectification", "retirer votre consentement", "suppression de vos données"]) {
      expect(text).toContain(s);
    }
    expect(text).toContain(`Vous pouvez exercer ces droits par e-mail à l'adresse ${contactEmail}`);
  });
});
