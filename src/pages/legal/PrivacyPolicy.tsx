export const title = "Politique de confidentialité";

const EFFECTIVE_DATE = "01.01.2023";

export type PrivacyPolicyProps = {
  /** Publisher of LitReview, data controller. */
  companyName: string;
  /** Contact point for personal-data questions and requests. */
  contactEmail: string;
};

export function PrivacyPolicy({ companyName, contactEmail }: PrivacyPolicyProps) {
  const mail = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

  return (
    <article>
      <h1>{title}</h1>
      <p>Date d’entrée en vigueur&nbsp;: {EFFECTIVE_DATE}</p>
      <p>
        La présente politique explique quelles données personnelles sont traitées lorsque vous utilisez LitReview,
        l’application web d’aide à la revue de la littérature biomédicale, pourquoi elles le sont, combien de temps
        elles sont conservées et comment exercer vos droits. Elle s’applique au site, à l’application et aux e-mails
        envoyés par le service.
      </p>

      <section>
        <h2>1. Responsable du traitement</h2>
        <p>
          Le responsable du traitement est {companyName}, éditeur de LitReview (ci-après «&nbsp;nous&nbsp;»). Pour toute
          question relative à vos données personnelles, vous pouvez écrire à notre point de contact&nbsp;: {mail}.
        </p>
        <p>
          Lorsque votre compte a été initié par votre établissement, celui-ci nous a transmis les informations
          nécessaires à sa création (nom et adresse e-mail). L’établissement reste responsable des traitements qu’il
          réalise de son côté, pour son propre compte.
        </p>
      </section>

      <section>
        <h2>2. Catégories de données traitées</h2>
        <ul>
          <li>
            <strong>Données de compte</strong>&nbsp;: nom complet, adresse e-mail, adresse e-mail institutionnelle
            (facultative) et mot de passe, conservé uniquement sous forme hachée&nbsp;; nous n’avons jamais connaissance
            de votre mot de passe en clair.
          </li>
          <li>
            <strong>Centres d’intérêt</strong>&nbsp;: la description de vos thèmes de recherche, que vous renseignez
            dans vos paramètres.
          </li>
          <li>
            <strong>Articles aimés et partages</strong>&nbsp;: les articles que vous marquez comme aimés et la date de
            ce choix&nbsp;; les articles que vous partagez ou recevez, avec l’identité de l’expéditeur et du
            destinataire.
          </li>
          <li>
            <strong>Historique des revues de littérature</strong>&nbsp;: les sujets saisis, le statut et le résultat de
            chaque revue, ses dates de création et de mise à jour.
          </li>
          <li>
            <strong>Abonnement et facturation</strong>&nbsp;: formule choisie, statut de l’abonnement, périodes d’essai
            et de facturation. Le paiement est effectué directement auprès de notre prestataire de paiement&nbsp;: nous
            ne recevons ni ne conservons vos numéros de carte bancaire.
          </li>
          <li>
            <strong>Données techniques de connexion</strong>&nbsp;: adresse IP, date et heure des connexions, type de
            navigateur et journaux techniques nécessaires au fonctionnement et à la sécurité du service.
          </li>
        </ul>
        <p>
          Nous ne vous demandons aucune donnée de santé. Les sujets de recherche que vous saisissez portent sur la
          littérature scientifique&nbsp;: n’y incluez jamais d’information permettant d’identifier un patient.
        </p>
      </section>

      <section>
        <h2>3. Finalités et bases légales</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Finalité</th>
              <th scope="col">Base légale</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Créer et gérer votre compte, vous authentifier</td>
              <td>Exécution du contrat (conditions générales d’utilisation)</td>
            </tr>
            <tr>
              <td>
                Réaliser les revues de littérature, gérer les articles aimés et les partages, vous adresser des
                suggestions hebdomadaires personnalisées
              </td>
              <td>Exécution du contrat</td>
            </tr>
            <tr>
              <td>Gérer l’abonnement, la facturation et les paiements</td>
              <td>Exécution du contrat et obligations légales comptables et fiscales</td>
            </tr>
            <tr>
              <td>
                Assurer la sécurité du service, prévenir les abus, établir des statistiques d’utilisation agrégées pour
                améliorer le service
              </td>
              <td>Intérêt légitime</td>
            </tr>
            <tr>
              <td>Présenter nos offres aux établissements intéressés (prospects)</td>
              <td>Intérêt légitime</td>
            </tr>
            <tr>
              <td>Déposer des cookies non essentiels, le cas échéant</td>
              <td>Consentement</td>
            </tr>
            <tr>
              <td>Répondre aux demandes des autorités habilitées, conserver les pièces exigées par la loi</td>
              <td>Obligations légales</td>
            </tr>
          </tbody>
        </table>
        <p>
          Lorsqu’un traitement repose sur notre intérêt légitime, vous pouvez vous y opposer&nbsp;; lorsqu’il repose sur
          votre consentement, vous pouvez retirer celui-ci à tout moment, sans que cela remette en cause les traitements
          déjà effectués.
        </p>
      </section>

      <section>
        <h2>4. Durées de conservation</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Données</th>
              <th scope="col">Durée</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Compte et données associées (centres d’intérêt, articles aimés, partages, historique des revues)</td>
              <td>
                Pendant toute l’utilisation du compte&nbsp;; un compte inactif depuis 2 ans est supprimé avec ses
                données.
              </td>
            </tr>
            <tr>
              <td>
                Données archivées (données nécessaires à la preuve d’un droit ou d’un contrat, dont les données de
                facturation)
              </td>
              <td>
                5 ans en archive à accès restreint, sauf durée plus longue imposée par une obligation légale, puis
                suppression.
              </td>
            </tr>
            <tr>
              <td>Données de prospects</td>
              <td>3 ans à compter du dernier contact émanant du prospect.</td>
            </tr>
            <tr>
              <td>Données techniques de connexion</td>
              <td>Durée nécessaire à la sécurité du service, dans les limites fixées par la réglementation.</td>
            </tr>
            <tr>
              <td>Cookies</td>
              <td>La durée de la session.</td>
            </tr>
          </tbody>
        </table>
        <p>
          Lorsque vous supprimez votre compte depuis vos paramètres, vos données sont effacées, sous réserve de
          l’archivage décrit ci-dessus.
        </p>
      </section>

      <section>
        <h2>5. Destinataires</h2>
        <p>
          Vos données sont accessibles au seul personnel habilité de {companyName}, dans la limite de ce qui est
          nécessaire à ses missions (support, administration technique, facturation). Elles sont également communiquées
          à nos sous-traitants, qui agissent sur nos instructions et sont tenus par contrat à la confidentialité et à la
          sécurité&nbsp;:
        </p>
        <ul>
          <li>notre hébergeur, qui fournit l’infrastructure cloud sur laquelle fonctionne le service&nbsp;;</li>
          <li>
            Stripe, notre prestataire de paiement, pour la souscription, le paiement et le suivi de l’abonnement&nbsp;;
          </li>
          <li>
            notre service d’envoi d’e-mails, pour les messages liés au service (récupération du mot de passe, partages
            d’articles, suggestions hebdomadaires).
          </li>
        </ul>
        <p>
          Pour permettre le partage d’articles, votre nom et votre adresse e-mail peuvent être proposés aux autres
          utilisateurs qui vous recherchent dans l’outil de partage, et le destinataire d’un partage voit qui le lui a
          envoyé. Nous ne vendons ni ne louons vos données. Elles ne sont communiquées aux autorités que lorsque la loi
          l’exige.
        </p>
      </section>

      <section>
        <h2>6. Hébergement</h2>
        <p>
          Le service et ses données sont hébergés dans un cloud situé en région parisienne (France, Union européenne).
          Si un sous-traitant, par exemple le prestataire de paiement, est amené à traiter des données hors de l’Union
          européenne, ce transfert est encadré par les garanties prévues par le RGPD, telles qu’une décision
          d’adéquation ou les clauses contractuelles types de la Commission européenne.
        </p>
      </section>

      <section>
        <h2>7. Vos droits</h2>
        <p>
          Conformément au règlement général sur la protection des données (RGPD) et à la loi Informatique et Libertés,
          vous disposez des droits suivants&nbsp;:
        </p>
        <ul>
          <li>droit d’accès à vos données et d’en obtenir une copie&nbsp;;</li>
          <li>droit de rectification des données inexactes ou incomplètes&nbsp;;</li>
          <li>droit à l’effacement de vos données&nbsp;;</li>
          <li>droit à la limitation du traitement&nbsp;;</li>
          <li>droit d’opposition aux traitements fondés sur notre intérêt légitime&nbsp;;</li>
          <li>
            droit à la portabilité des données que vous nous avez fournies, dans un format structuré et lisible par
            machine&nbsp;;
          </li>
          <li>droit de retirer votre consentement à tout moment&nbsp;;</li>
          <li>
            droit de définir des directives relatives au sort de vos données après votre décès (directives
            post-mortem)&nbsp;;
          </li>
          <li>
            droit d’introduire une réclamation auprès de la Commission nationale de l’informatique et des libertés
            (CNIL), autorité de contrôle française.
          </li>
        </ul>
      </section>

      <section>
        <h2>8. Exercer vos droits</h2>
        <p>
          Pour exercer vos droits, écrivez à notre point de contact, {mail}, en précisant l’objet de votre demande et
          l’adresse e-mail de votre compte. Nous vous répondons dans un délai d’un mois à compter de la réception de la
          demande. Ce délai peut être prolongé de deux mois si la demande est complexe ou si nous en recevons un grand
          nombre&nbsp;; nous vous en informons alors dans le premier mois. En cas de doute raisonnable sur votre
          identité, nous pouvons vous demander une information complémentaire.
        </p>
        <p>
          Vous pouvez aussi agir directement depuis vos paramètres&nbsp;: modifier votre profil et vos centres
          d’intérêt, ou supprimer votre compte.
        </p>
      </section>

      <section>
        <h2>9. Sécurité</h2>
        <p>
          Nous mettons en œuvre des mesures techniques et organisationnelles adaptées aux risques&nbsp;: mots de passe
          stockés uniquement sous forme hachée, chiffrement des échanges entre votre navigateur et le service, accès aux
          données limité au personnel habilité, journalisation des opérations techniques et sauvegardes. Aucun système
          n’étant infaillible, nous vous recommandons de choisir un mot de passe robuste et de ne pas le communiquer. En
          cas de violation de données présentant un risque pour vos droits, nous informons la CNIL et, lorsque la loi
          l’exige, les personnes concernées.
        </p>
      </section>

      <section>
        <h2>10. Modification de la politique</h2>
        <p>
          Nous pouvons faire évoluer la présente politique, notamment pour tenir compte des évolutions du service ou de
          la réglementation. La date d’entrée en vigueur indiquée en tête de page identifie la version applicable. Toute
          modification importante vous est signalée par e-mail.
        </p>
      </section>
    </article>
  );
}
