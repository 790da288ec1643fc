// English reading version of ../CookiePolicy.tsx. The French text governs; keep the two in step when either changes.
export const title = "Cookie Policy";

const EFFECTIVE_DATE = "01/01/2023";

/** The cookie policy in English, a translation of the French policy for reading only. */
export function CookiePolicyEn({ contactEmail }: { contactEmail: string }) {
  const mail = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

  return (
    <article>
      <h1>{title}</h1>
      <p>Effective date: {EFFECTIVE_DATE}</p>
      <p>
        This policy explains how LitReview uses cookies, how you can accept or refuse them and how to change your choice
        at any time.
      </p>

      <section>
        <h2>1. What is a cookie?</h2>
        <p>
          A cookie is a small text file placed on your device (computer, tablet, phone) by the site you visit. The site
          reads it on your later visits or as you browse, which lets it, for example, recognise an open session or
          remember a preference. A cookie can neither run a program nor access the other files on your device.
        </p>
        <p>
          First-party cookies are placed by the site visited itself; third-party cookies are placed by others
          (advertising networks, social networks, audience measurement tools). Session cookies disappear at the end of
          the session; persistent cookies are kept longer.
        </p>
      </section>

      <section>
        <h2>2. The cookies LitReview uses</h2>
        <p>
          LitReview uses cookies only to authenticate users and to remember the chosen language. We use no advertising
          cookie, no social network cookie and no third-party audience measurement cookie. The two cookies below are
          first-party cookies, kept only for the session.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Purpose</th>
              <th scope="col">Set by</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>access_token</code>
              </td>
              <td>
                Access token for the session: it authenticates the signed-in user without asking for the credentials
                again on every page. Strictly necessary for the service you ask for, it is set when you log in and does
                not require consent.
              </td>
              <td>LitReview (first-party cookie)</td>
              <td>The session</td>
            </tr>
            <tr>
              <td>
                <code>lang</code>
              </td>
              <td>Remembers the language chosen for the site. It is set only with your consent.</td>
              <td>LitReview (first-party cookie)</td>
              <td>The session</td>
            </tr>
          </tbody>
        </table>
        <p>
          The information in these cookies is used only to run the service. It is neither sold nor passed on to third
          parties for commercial purposes.
        </p>
        <p>
          The site also uses your browser's local storage, which is not sent to our servers: the{" "}
          <code>access_token</code> entry keeps the access token while you are signed in and is erased when you log out;
          the <code>theme</code> entry remembers the light or dark theme, only if you choose one with the button
          provided; the <code>banner_collapsed</code> entry remembers, if you ask for it, that the information banner is
          folded on a phone; the <code>cookie_consent</code> entry keeps your cookie choice (see below). These settings,
          needed by the service or asked for by you, do not require consent.
        </p>
      </section>

      <section>
        <h2>3. Your consent</h2>
        <p>
          On your first visit, a banner tells you about the use of cookies and offers, just as simply, to accept or
          refuse them. Your choice is recorded in your browser's local storage (the <code>cookie_consent</code> entry,
          with its date) and respected on your later visits; you are asked again after six months.
        </p>
        <p>
          You do not have to answer: no answer counts as a refusal. Until you accept, no cookie that requires consent is
          set. Refusing has no other consequence than losing what those cookies allow: the chosen language is not
          remembered. Signing in to your account, which relies on a strictly necessary cookie, does not depend on it.
        </p>
      </section>

      <section>
        <h2>4. Withdrawing your consent: the "Manage cookies" icon</h2>
        <p>
          A "Manage cookies" icon (« Gérer mes cookies » in the French version) is present on every page of the site, in
          the footer. It reopens the choice panel and lets you, at any time, withdraw the consent given or, on the
          contrary, accept the cookies you had refused. Withdrawing consent is as simple as giving it: the cookies that
          require consent are then deleted. Withdrawal applies to the future; it does not call into question the use of
          cookies made before.
        </p>
      </section>

      <section>
        <h2>5. Setting up your browser</h2>
        <p>
          You can also set up your browser to accept or refuse cookies, to be warned before they are set or to delete
          those already stored. Menu names may vary with the browser's version and the system used:
        </p>
        <ul>
          <li>
            <strong>Google Chrome</strong>: open the menu shown as three vertical dots, choose "Settings", then "Privacy
            and security". The section on cookies lets you block them, and "Delete browsing data" lets you erase those
            already stored.
          </li>
          <li>
            <strong>Mozilla Firefox</strong>: open the menu shown as three horizontal lines, choose "Settings", then the
            "Privacy &amp; Security" panel. The "Cookies and Site Data" section lets you manage or erase cookies.
          </li>
          <li>
            <strong>Safari</strong>: on a Mac, open the "Safari" menu, choose "Settings" (or "Preferences"), then the
            "Privacy" tab, where you can block cookies and manage website data. On an iPhone or iPad, these options are
            in the Settings app, in the section on Safari.
          </li>
          <li>
            <strong>Microsoft Edge</strong>: open the menu shown as three horizontal dots, choose "Settings", then
            "Cookies and site permissions" to manage and delete cookies. Clearing browsing data is in the section on
            privacy.
          </li>
        </ul>
        <p>If you block all cookies, signing in to your account may no longer work properly.</p>
      </section>

      <section>
        <h2>6. Your rights</h2>
        <p>
          Under data-protection law, you have the right to access and rectify the data concerning you, the right to
          withdraw your consent at any time and the right to have your data deleted. You can exercise these rights by
          e-mail at {mail}.
        </p>
        <p>
          To learn more about how your personal data is processed, read our <a href="/privacy/en">privacy policy</a>.
        </p>
      </section>

      <section>
        <h2>7. Changes to this policy</h2>
        <p>
          This policy may be updated, in particular if we were to use new cookies. Any new cookie that requires consent
          would be set only after obtaining your agreement. The effective date at the top of the page identifies the
          applicable version.
        </p>
      </section>
    </article>
  );
}
