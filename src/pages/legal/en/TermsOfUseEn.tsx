// English reading version of ../TermsOfUse.tsx. The French text governs; keep the two in step when either changes.
export const title = "Terms of Use";

const EFFECTIVE_DATE = "01/01/2023";

/** The terms of use in English, a translation of the French terms for reading only. */
export function TermsOfUseEn({ companyName, contactEmail }: { companyName: string; contactEmail: string }) {
  const mail = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

  return (
    <article>
      <h1>{title}</h1>
      <p>Effective date: {EFFECTIVE_DATE}</p>
      <p>
        These terms of use (hereinafter the "Terms") govern access to and use of LitReview. They are agreed between{" "}
        {companyName}, publisher of LitReview, and each user. For any question, you can write to {mail}.
      </p>

      <section>
        <h2>1. Definitions</h2>
        <ul>
          <li>
            <strong>Publisher</strong>: {companyName}, which publishes and operates LitReview.
          </li>
          <li>
            <strong>Service</strong>: the LitReview web application and all the tools described in article 3.
          </li>
          <li>
            <strong>Institution</strong>: the organisation (university, hospital, laboratory, company…) holding a
            subscription to the Service.
          </li>
          <li>
            <strong>User</strong>: the natural person, acting in a professional capacity, who has an account.
          </li>
          <li>
            <strong>Account</strong>: the User's personal space, protected by an identifier and a password.
          </li>
          <li>
            <strong>Content</strong>: the bibliographic records, article abstracts, summaries and other information
            available through the Service.
          </li>
        </ul>
      </section>

      <section>
        <h2>2. Purpose and intended audience</h2>
        <p>
          The Service helps researchers and clinicians explore the biomedical literature. It is intended exclusively for
          individual users acting in a professional context. Accounts are initiated by an Institution holding a
          subscription, which names the people allowed to use the Service. Using the Service means accepting these Terms
          without reservation.
        </p>
      </section>

      <section>
        <h2>3. The tools of the Service</h2>
        <p>The Service brings together four tools:</p>
        <ul>
          <li>
            <strong>the literature review</strong>, which searches for the articles relevant to a topic entered by the
            User and produces a summary of them with numbered citations referring to the articles;
          </li>
          <li>
            <strong>the notebook</strong>, which lets the User keep and organise reading notes;
          </li>
          <li>
            <strong>the marketplace</strong>, a space where additional services or resources offered by the Publisher or
            by third parties may be presented;
          </li>
          <li>
            <strong>the application</strong>, that is, the interface through which the User reaches their dashboard,
            liked articles, received shares, weekly suggestions and settings.
          </li>
        </ul>
        <p>
          The Service is under migration and development: some tools are made available progressively, their performance
          may vary and some data may be temporarily missing. Some features are reserved for holders of an active
          subscription plan; the plans and their financial terms are presented in the Account settings.
        </p>
      </section>

      <section>
        <h2>4. Creating and deactivating the account</h2>
        <p>
          The Account is initiated by the Institution holding the subscription. The User completes the registration,
          gives accurate information (name, e-mail address and, where applicable, institutional e-mail address) and
          keeps it up to date. The Account is strictly personal: the identifier and the password must not be shared.
        </p>
        <p>
          The User can delete the Account at any time from the settings; the deletion is final. The Publisher may
          suspend or deactivate an Account in case of a breach of these Terms, at the Institution's request or at the
          end of its subscription, after informing the User, except in an emergency concerning the security of the
          Service.
        </p>
      </section>

      <section>
        <h2>5. The user's obligations</h2>
        <p>The User undertakes to:</p>
        <ul>
          <li>use the Service in line with its professional purpose and the laws in force;</li>
          <li>keep their credentials confidential and report any unauthorised use without delay;</li>
          <li>
            enter no data that could identify a patient and no confidential information they are not free to disclose;
          </li>
          <li>
            not extract the Content in bulk, not circumvent the technical protection measures and not disrupt the
            operation of the Service;
          </li>
          <li>use the sharing feature only for professional purposes, without sending unsolicited messages.</li>
        </ul>
      </section>

      <section>
        <h2>6. Liability</h2>
        <p>
          The Service is a tool that assists literature research. It gives no medical advice and replaces neither
          clinical judgement nor the reading of the publications. The summaries are generated automatically from the
          articles' abstracts: they may be incomplete or inaccurate and must always be checked by the User against the
          cited sources before any use.
        </p>
        <p>
          The Publisher takes reasonable steps to provide access to the Service, without guaranteeing continuous
          availability or the completeness of the Content. It cannot be held liable for decisions made on the basis of
          the Content, nor for indirect damage. The User is responsible for their use of the Service and for the
          information they enter in it.
        </p>
      </section>

      <section>
        <h2>7. Intellectual property</h2>
        <p>
          The Service, its software, its presentation and the LitReview trademark are protected and belong to the
          Publisher. No rights are assigned to the User, who has a personal, non-exclusive right of use for the duration
          of their access.
        </p>
        <p>
          Records from PubMed remain data of the United States National Library of Medicine (NLM). Article abstracts
          remain the text of their authors and publishers; they are shown for information and research purposes, and any
          reuse must respect their rights. The queries and notes entered by the User belong to the User, who allows the
          Publisher to process them only as far as needed to provide the Service.
        </p>
      </section>

      <section>
        <h2>8. Personal data</h2>
        <p>
          The processing of personal data carried out as part of the Service is described in the{" "}
          <a href="/privacy/en">privacy policy</a>, and the use of cookies in the{" "}
          <a href="/cookies/en">cookie policy</a>.
        </p>
      </section>

      <section>
        <h2>9. Advertising</h2>
        <p>
          The Service may present information about offers of the Publisher or of partners, in particular in the
          marketplace. This content is clearly identified as promotional. No advertising cookie is set to display it.
        </p>
      </section>

      <section>
        <h2>10. Commercial reference</h2>
        <p>
          The Publisher may cite the name and logo of the subscribing Institution as a customer reference in its
          communication materials, unless the Institution objects by e-mail to {mail}. This mention never concerns Users
          as individuals.
        </p>
      </section>

      <section>
        <h2>11. Links to third-party sites</h2>
        <p>
          The Service contains links to third-party sites, for example publishers' pages reached through a DOI or links
          to the full text. The Publisher has no control over these sites and is not responsible for their content,
          their availability or their personal-data practices.
        </p>
      </section>

      <section>
        <h2>12. Changes to the terms</h2>
        <p>
          The Publisher may change these Terms. Any change is notified to the User by e-mail and applies 15 days after
          that notice. A User who refuses the new Terms can delete their Account before they apply; otherwise,
          continuing to use the Service means accepting them.
        </p>
      </section>

      <section>
        <h2>13. Governing law and jurisdiction</h2>
        <p>
          These Terms are governed by French law. In the event of a dispute, the parties first seek an amicable
          solution. Failing that, the courts of Paris have jurisdiction, subject to mandatory rules to the contrary.
        </p>
      </section>
    </article>
  );
}
