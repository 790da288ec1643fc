export const title = "Politique relative aux cookies";

const EFFECTIVE_DATE = "01/01/2023";

export type CookiePolicyProps = {
  /** Address to which data-protection requests are sent. */
  contactEmail: string;
};

export function CookiePolicy({ contactEmail }: CookiePolicyProps) {
  const mail = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

  return (
    <article>
      <h1>{title}</h1>
      <p>Date d’entrée en vigueur&nbsp;: {EFFECTIVE_DATE}</p>
      <p>
        Cette politique explique comment LitReview utilise les cookies, comment vous pouvez accepter ou refuser leur
        dépôt et comment modifier votre choix à tout moment.
      </p>

      <section>
        <h2>1. Qu’est-ce qu’un cookie&nbsp;?</h2>
        <p>
          Un cookie est un petit fichier texte déposé sur votre terminal (ordinateur, tablette, téléphone) par le site
          que vous consultez. Il est lu par ce site lors de vos visites suivantes ou au fil de votre navigation, ce qui
          lui permet par exemple de reconnaître une session ouverte ou de se souvenir d’une préférence. Un cookie ne
          peut ni exécuter de programme ni accéder aux autres fichiers de votre terminal.
        </p>
        <p>
          On distingue les cookies internes, déposés par le site visité lui-même, et les cookies tiers, déposés par
          d’autres acteurs (régies publicitaires, réseaux sociaux, outils de mesure d’audience). On distingue aussi les
          cookies de session, qui disparaissent à la fin de la session, et les cookies persistants, conservés plus
          longtemps.
        </p>
      </section>

      <section>
        <h2>2. Les cookies utilisés par LitReview</h2>
        <p>
          LitReview utilise des cookies uniquement pour l’authentification des utilisateurs et pour mémoriser la langue
          choisie. Nous n’utilisons aucun cookie publicitaire, aucun cookie de réseau social et aucun cookie tiers de
          mesure d’audience. Les deux cookies ci-dessous sont des cookies internes, conservés uniquement pour la durée
          de la session.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Nom</th>
              <th scope="col">Finalité</th>
              <th scope="col">Émetteur</th>
              <th scope="col">Durée</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>access_token</code>
              </td>
              <td>
                Jeton d’accès pour la session&nbsp;: il permet l’authentification de l’utilisateur connecté, sans avoir
                à ressaisir ses identifiants à chaque page. Strictement nécessaire au service que vous demandez, il est
                déposé lorsque vous vous connectez et n’est pas soumis à consentement.
              </td>
              <td>LitReview (cookie interne)</td>
              <td>La session</td>
            </tr>
            <tr>
              <td>
                <code>lang</code>
              </td>
              <td>Mémorise la langue choisie pour l’affichage du site. Il n’est déposé qu’avec votre accord.</td>
              <td>LitReview (cookie interne)</td>
              <td>La session</td>
            </tr>
          </tbody>
        </table>
        <p>
          Les informations contenues dans ces cookies ne sont utilisées que pour faire fonctionner le service. Elles ne
          sont ni vendues ni transmises à des tiers à des fins commerciales.
        </p>
        <p>
          Le site utilise aussi le stockage local de votre navigateur, qui n’est pas transmis à nos serveurs&nbsp;:
          l’entrée <code>access_token</code> conserve le jeton d’accès pendant que vous êtes connecté et est effacée à
          la déconnexion&nbsp;; l’entrée <code>theme</code> mémorise le thème clair ou sombre, seulement si vous le
          choisissez avec le bouton prévu à cet effet&nbsp;; l’entrée <code>banner_collapsed</code> mémorise, si vous le
          demandez, que le bandeau d’information est replié sur téléphone&nbsp;; l’entrée <code>cookie_consent</code>{" "}
          conserve votre choix en matière de cookies (voir ci-dessous). Ces réglages, nécessaires au service ou demandés
          par vous, ne sont pas soumis à consentement.
        </p>
      </section>

      <section>
        <h2>3. Votre consentement</h2>
        <p>
          Lors de votre première visite, un bandeau vous informe de l’utilisation des cookies et vous propose, avec la
          même simplicité, de les accepter ou de les refuser. Votre choix est enregistré dans le stockage local de votre
          navigateur (entrée <code>cookie_consent</code>, avec sa date) et respecté lors de vos visites suivantes&nbsp;;
          il vous est demandé à nouveau au bout de six mois.
        </p>
        <p>
          Vous n’êtes pas tenu de répondre&nbsp;: l’absence de réponse vaut refus. Tant que vous n’avez pas accepté,
          aucun cookie soumis à consentement n’est déposé. Le refus n’a pas d’autre conséquence que la perte des
          fonctions que ces cookies permettent&nbsp;: la langue choisie n’est pas mémorisée. La connexion à votre
          compte, qui repose sur un cookie strictement nécessaire, n’en dépend pas.
        </p>
      </section>

      <section>
        <h2>4. Retirer votre consentement&nbsp;: l’icône «&nbsp;Gérer mes cookies&nbsp;»</h2>
        <p>
          Une icône «&nbsp;Gérer mes cookies&nbsp;» est présente sur chaque page du site, en pied de page (libellée
          «&nbsp;Manage cookies&nbsp;» dans l’interface en anglais). Elle rouvre le panneau de choix et vous permet, à
          tout moment, de retirer le consentement donné ou, au contraire, d’accepter les cookies que vous aviez refusés.
          Retirer votre consentement est aussi simple que de le donner&nbsp;: les cookies soumis à consentement sont
          alors supprimés. Le retrait vaut pour l’avenir&nbsp;; il ne remet pas en cause l’utilisation des cookies faite
          auparavant.
        </p>
      </section>

      <section>
        <h2>5. Paramétrer votre navigateur</h2>
        <p>
          Vous pouvez également configurer votre navigateur pour accepter ou refuser les cookies, être averti avant leur
          dépôt ou supprimer ceux déjà enregistrés. Les intitulés des menus peuvent varier selon la version du
          navigateur et le système utilisé&nbsp;:
        </p>
        <ul>
          <li>
            <strong>Google Chrome</strong>&nbsp;: ouvrez le menu représenté par trois points verticaux, choisissez
            «&nbsp;Paramètres&nbsp;», puis «&nbsp;Confidentialité et sécurité&nbsp;». La rubrique consacrée aux cookies
            permet de les bloquer, et «&nbsp;Supprimer les données de navigation&nbsp;» permet d’effacer ceux déjà
            enregistrés.
          </li>
          <li>
            <strong>Mozilla Firefox</strong>&nbsp;: ouvrez le menu représenté par trois traits horizontaux, choisissez
            «&nbsp;Paramètres&nbsp;», puis le panneau «&nbsp;Vie privée et sécurité&nbsp;». La section «&nbsp;Cookies et
            données de sites&nbsp;» permet de gérer ou d’effacer les cookies.
          </li>
          <li>
            <strong>Safari</strong>&nbsp;: sur Mac, ouvrez le menu «&nbsp;Safari&nbsp;», choisissez
            «&nbsp;Réglages&nbsp;» (ou «&nbsp;Préférences&nbsp;»), puis l’onglet «&nbsp;Confidentialité&nbsp;», où vous
            pouvez bloquer les cookies et gérer les données des sites web. Sur iPhone ou iPad, ces options se trouvent
            dans l’application Réglages, à la rubrique consacrée à Safari.
          </li>
          <li>
            <strong>Microsoft Edge</strong>&nbsp;: ouvrez le menu représenté par trois points horizontaux, choisissez
            «&nbsp;Paramètres&nbsp;», puis «&nbsp;Cookies et autorisations de site&nbsp;» pour gérer et supprimer les
            cookies. L’effacement des données de navigation se trouve dans la rubrique consacrée à la confidentialité.
          </li>
        </ul>
        <p>Si vous bloquez tous les cookies, la connexion à votre compte peut ne plus fonctionner correctement.</p>
      </section>

      <section>
        <h2>6. Vos droits</h2>
        <p>
          Conformément à la réglementation sur la protection des données, vous disposez d’un droit d’accès et de
          rectification des données vous concernant, du droit de retirer votre consentement à tout moment et du droit
          d’obtenir la suppression de vos données. Vous pouvez exercer ces droits par e-mail à l’adresse {mail}.
        </p>
        <p>
          Pour en savoir plus sur le traitement de vos données personnelles, consultez notre{" "}
          <a href="/privacy">politique de confidentialité</a>.
        </p>
      </section>

      <section>
        <h2>7. Évolution de cette politique</h2>
        <p>
          Cette politique peut être mise à jour, notamment si nous venions à utiliser de nouveaux cookies. Tout nouveau
          cookie soumis à consentement ne serait déposé qu’après avoir recueilli votre accord. La date d’entrée en
          vigueur indiquée en tête de page identifie la version applicable.
        </p>
      </section>
    </article>
  );
}
