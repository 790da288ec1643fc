// English reading version of ../PrivacyPolicy.tsx. The French text governs; keep the two in step when either changes.
export const title = "Privacy Policy";

const EFFECTIVE_DATE = "01.01.2023";

/** The privacy policy in English, a translation of the French policy for reading only. */
export function PrivacyPolicyEn({ companyName, contactEmail }: { companyName: string; contactEmail: string }) {
  const mail = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

  return (
    <article>
      <h1>{title}</h1>
      <p>Effective date: {EFFECTIVE_DATE}</p>
      <p>
        This policy explains which personal data is processed when you use LitReview, the web application that helps
        review the biomedical literature, why it is processed, how long it is kept and how to exercise your rights. It
        applies to the site, the application and the e-mails the service sends.
      </p>

      <section>
        <h2>1. Data controller</h2>
        <p>
          The data controller is {companyName}, publisher of LitReview (hereinafter "we"). For any question about your
          personal data, you can write to our contact point: {mail}.
        </p>
        <p>
          Where your account was initiated by your institution, the institution gave us the information needed to create
          it (name and e-mail address). The institution remains responsible for the processing it carries out on its
          side, on its own behalf.
        </p>
      </section>

      <section>
        <h2>2. Categories of data processed</h2>
        <ul>
          <li>
            <strong>Account data</strong>: full name, e-mail address, institutional e-mail address (optional) and
            password, kept only in hashed form; we never know your password in clear.
          </li>
          <li>
            <strong>Interests</strong>: the description of your research topics, which you enter in your settings.
          </li>
          <li>
            <strong>Liked articles and shares</strong>: the articles you mark as liked and the date of that choice; the
            articles you share or receive, with the identity of the sender and the recipient.
          </li>
          <li>
            <strong>Literature review history</strong>: the topics entered, the status and result of each review, and
            its creation and update dates.
          </li>
          <li>
            <strong>Subscription and billing</strong>: the plan chosen, the subscription's status, trial and billing
            periods. Payment is made directly with our payment provider: we neither receive nor keep your card numbers.
          </li>
          <li>
            <strong>Technical connection data</strong>: IP address, date and time of connections, browser type and the
            technical logs needed to run and secure the service.
          </li>
        </ul>
        <p>
          We ask for no health data. The research topics you enter concern the scientific literature: never include
          information that could identify a patient.
        </p>
      </section>

      <section>
        <h2>3. Purposes and legal bases</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Purpose</th>
              <th scope="col">Legal basis</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Creating and managing your account, authenticating you</td>
              <td>Performance of the contract (terms of use)</td>
            </tr>
            <tr>
              <td>
                Carrying out literature reviews, managing liked articles and shares, sending you personalised weekly
                suggestions
              </td>
              <td>Performance of the contract</td>
            </tr>
            <tr>
              <td>Managing the subscription, billing and payments</td>
              <td>Performance of the contract and legal accounting and tax obligations</td>
            </tr>
            <tr>
              <td>
                Securing the service, preventing abuse, producing aggregated usage statistics to improve the service
              </td>
              <td>Legitimate interest</td>
            </tr>
            <tr>
              <td>Presenting our offers to interested institutions (prospects)</td>
              <td>Legitimate interest</td>
            </tr>
            <tr>
              <td>Setting non-essential cookies, where applicable</td>
              <td>Consent</td>
            </tr>
            <tr>
              <td>Answering requests from authorised authorities, keeping the records the law requires</td>
              <td>Legal obligations</td>
            </tr>
          </tbody>
        </table>
        <p>
          Where processing rests on our legitimate interest, you can object to it; where it rests on your consent, you
          can withdraw it at any time, without affecting the processing already carried out.
        </p>
      </section>

      <section>
        <h2>4. Retention periods</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Data</th>
              <th scope="col">Period</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Account and associated data (interests, liked articles, shares, review history)</td>
              <td>For as long as the account is used; an account inactive for 2 years is deleted with its data.</td>
            </tr>
            <tr>
              <td>Archived data (data needed to prove a right or a contract, including billing data)</td>
              <td>5 years in a restricted-access archive, unless a legal obligation requires longer, then deletion.</td>
            </tr>
            <tr>
              <td>Prospect data</td>
              <td>3 years from the last contact initiated by the prospect.</td>
            </tr>
            <tr>
              <td>Technical connection data</td>
              <td>As long as the security of the service requires, within the limits set by the regulations.</td>
            </tr>
            <tr>
              <td>Cookies</td>
              <td>The length of the session.</td>
            </tr>
          </tbody>
        </table>
        <p>
          When you delete your account from your settings, your data is erased, subject to the archiving described
          above.
        </p>
      </section>

      <section>
        <h2>5. Recipients</h2>
        <p>
          Your data is accessible only to the authorised staff of {companyName}, to the extent their tasks require
          (support, technical administration, billing). It is also passed to our processors, who act on our instructions
          and are bound by contract to confidentiality and security:
        </p>
        <ul>
          <li>our hosting provider, which supplies the cloud infrastructure the service runs on;</li>
          <li>Stripe, our payment provider, for subscribing, paying and following the subscription;</li>
          <li>
            our e-mail delivery service, for the messages of the service (password recovery, article shares, weekly
            suggestions).
          </li>
        </ul>
        <p>
          To make sharing articles possible, your name and e-mail address may be offered to other users who look for you
          in the sharing tool, and the recipient of a share sees who sent it. We neither sell nor rent your data. It is
          passed to authorities only when the law requires it.
        </p>
      </section>

      <section>
        <h2>6. Hosting</h2>
        <p>
          The service and its data are hosted in a cloud located in the Paris region (France, European Union). If a
          processor, for example the payment provider, has to process data outside the European Union, that transfer is
          covered by the safeguards the GDPR provides for, such as an adequacy decision or the European Commission's
          standard contractual clauses.
        </p>
      </section>

      <section>
        <h2>7. Your rights</h2>
        <p>
          Under the General Data Protection Regulation (GDPR) and the French Data Protection Act (loi Informatique et
          Libertés), you have the following rights:
        </p>
        <ul>
          <li>the right to access your data and obtain a copy of it;</li>
          <li>the right to rectify inaccurate or incomplete data;</li>
          <li>the right to have your data erased;</li>
          <li>the right to restrict processing;</li>
          <li>the right to object to processing based on our legitimate interest;</li>
          <li>the right to portability of the data you gave us, in a structured, machine-readable format;</li>
          <li>the right to withdraw your consent at any time;</li>
          <li>the right to set directives on what happens to your data after your death (post-mortem directives);</li>
          <li>
            the right to lodge a complaint with the Commission nationale de l’informatique et des libertés (CNIL), the
            French supervisory authority.
          </li>
        </ul>
      </section>

      <section>
        <h2>8. Exercising your rights</h2>
        <p>
          To exercise your rights, write to our contact point, {mail}, stating the subject of your request and your
          account's e-mail address. We answer within one month of receiving the request. This period may be extended by
          two months if the request is complex or if we receive many; we then tell you so within the first month. If we
          have reasonable doubt about your identity, we may ask you for additional information.
        </p>
        <p>
          You can also act directly from your settings: change your profile and your interests, or delete your account.
        </p>
      </section>

      <section>
        <h2>9. Security</h2>
        <p>
          We apply technical and organisational measures suited to the risks: passwords stored only in hashed form,
          encryption of the exchanges between your browser and the service, access to data limited to authorised staff,
          logging of technical operations and backups. As no system is infallible, we recommend that you choose a strong
          password and do not share it. In the event of a data breach that puts your rights at risk, we inform the CNIL
          and, where the law requires, the people concerned.
        </p>
      </section>

      <section>
        <h2>10. Changes to the policy</h2>
        <p>
          We may change this policy, in particular to reflect changes in the service or in the regulations. The
          effective date at the top of the page identifies the applicable version. Any significant change is notified to
          you by e-mail.
        </p>
      </section>
    </article>
  );
}
