export const title = "Conditions générales d’utilisation";

const EFFECTIVE_DATE = "01/01/2023";

export type TermsOfUseProps = {
  /** Publisher of LitReview. */
  companyName: string;
  /** Contact address for questions about these terms. */
  contactEmail: string;
};

export function TermsOfUse({ companyName, contactEmail }: TermsOfUseProps) {
  const mail = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

  return (
    <article>
      <h1>{title}</h1>
      <p>Date d’entrée en vigueur&nbsp;: {EFFECTIVE_DATE}</p>
      <p>
        Les présentes conditions générales d’utilisation (ci-après les «&nbsp;Conditions&nbsp;») encadrent l’accès à
        LitReview et son utilisation. Elles sont conclues entre {companyName}, éditeur de LitReview, et chaque
        utilisateur. Pour toute question, vous pouvez écrire à {mail}.
      </p>

      <section>
        <h2>1. Définitions</h2>
        <ul>
          <li>
            <strong>Éditeur</strong>&nbsp;: {companyName}, qui édite et exploite LitReview.
          </li>
          <li>
            <strong>Service</strong>&nbsp;: l’application web LitReview et l’ensemble des outils décrits à l’article 3.
          </li>
          <li>
            <strong>Établissement</strong>&nbsp;: l’organisme (université, hôpital, laboratoire, entreprise…) titulaire
            d’un abonnement au Service.
          </li>
          <li>
            <strong>Utilisateur</strong>&nbsp;: la personne physique, agissant à titre professionnel, qui dispose d’un
            compte.
          </li>
          <li>
            <strong>Compte</strong>&nbsp;: l’espace personnel de l’Utilisateur, protégé par un identifiant et un mot de
            passe.
          </li>
          <li>
            <strong>Contenus</strong>&nbsp;: les notices bibliographiques, résumés d’articles, synthèses et autres
            informations accessibles par le Service.
          </li>
        </ul>
      </section>

      <section>
        <h2>2. Objet et public visé</h2>
        <p>
          Le Service aide les chercheurs et cliniciens à explorer la littérature biomédicale. Il est destiné
          exclusivement à des utilisateurs individuels agissant dans un cadre professionnel. Les comptes sont initiés
          par un Établissement titulaire d’un abonnement, qui désigne les personnes autorisées à utiliser le Service.
          L’utilisation du Service vaut acceptation sans réserve des présentes Conditions.
        </p>
      </section>

      <section>
        <h2>3. Les outils du Service</h2>
        <p>Le Service réunit quatre outils&nbsp;:</p>
        <ul>
          <li>
            <strong>la revue de littérature</strong>, qui recherche les articles pertinents pour un sujet saisi par
            l’Utilisateur et en produit une synthèse assortie de citations numérotées renvoyant aux articles&nbsp;;
          </li>
          <li>
            <strong>le carnet de notes</strong> (notebook), qui permet de conserver et d’organiser ses notes de
            lecture&nbsp;;
          </li>
          <li>
            <strong>la place de marché</strong> (marketplace), espace où peuvent être présentés des services ou
            ressources complémentaires proposés par l’Éditeur ou par des tiers&nbsp;;
          </li>
          <li>
            <strong>l’application</strong>, c’est-à-dire l’interface par laquelle l’Utilisateur accède à son tableau de
            bord, à ses articles aimés, aux partages reçus, aux suggestions hebdomadaires et à ses paramètres.
          </li>
        </ul>
        <p>
          Le Service est en cours de migration et de développement&nbsp;: certains outils sont mis à disposition
          progressivement, leurs performances peuvent varier et certaines données peuvent être temporairement
          manquantes. Certaines fonctionnalités sont réservées aux titulaires d’une formule d’abonnement active&nbsp;;
          les formules et leurs conditions financières sont présentées dans les paramètres du Compte.
        </p>
      </section>

      <section>
        <h2>4. Création et désactivation du compte</h2>
        <p>
          Le Compte est initié par l’Établissement titulaire de l’abonnement. L’Utilisateur complète son inscription,
          fournit des informations exactes (nom, adresse e-mail, le cas échéant adresse e-mail institutionnelle) et les
          tient à jour. Le Compte est strictement personnel&nbsp;: l’identifiant et le mot de passe ne doivent pas être
          partagés.
        </p>
        <p>
          L’Utilisateur peut supprimer son Compte à tout moment depuis ses paramètres&nbsp;; cette suppression est
          définitive. L’Éditeur peut suspendre ou désactiver un Compte en cas de manquement aux présentes Conditions, à
          la demande de l’Établissement ou à la fin de son abonnement, après en avoir informé l’Utilisateur sauf urgence
          liée à la sécurité du Service.
        </p>
      </section>

      <section>
        <h2>5. Obligations de l’utilisateur</h2>
        <p>L’Utilisateur s’engage à&nbsp;:</p>
        <ul>
          <li>utiliser le Service conformément à sa destination professionnelle et aux lois en vigueur&nbsp;;</li>
          <li>
            préserver la confidentialité de ses identifiants et signaler sans délai toute utilisation non
            autorisée&nbsp;;
          </li>
          <li>
            ne saisir aucune donnée permettant d’identifier un patient ni aucune information confidentielle dont il n’a
            pas la libre disposition&nbsp;;
          </li>
          <li>
            ne pas extraire massivement les Contenus, ne pas contourner les mesures techniques de protection et ne pas
            perturber le fonctionnement du Service&nbsp;;
          </li>
          <li>
            n’utiliser la fonction de partage qu’à des fins professionnelles, sans envoi de messages non sollicités.
          </li>
        </ul>
      </section>

      <section>
        <h2>6. Responsabilité</h2>
        <p>
          Le Service est un outil d’aide à la recherche documentaire. Il ne fournit aucun avis médical et ne remplace ni
          le jugement clinique ni la lecture des publications. Les synthèses sont générées automatiquement à partir des
          résumés des articles&nbsp;: elles peuvent être incomplètes ou inexactes et doivent toujours être vérifiées par
          l’Utilisateur au regard des sources citées avant toute utilisation.
        </p>
        <p>
          L’Éditeur met en œuvre les moyens raisonnables pour assurer l’accès au Service, sans garantir une
          disponibilité continue ni l’exhaustivité des Contenus. Il ne saurait être tenu responsable des décisions
          prises sur la base des Contenus, ni des dommages indirects. L’Utilisateur est responsable de l’usage qu’il
          fait du Service et des informations qu’il y saisit.
        </p>
      </section>

      <section>
        <h2>7. Propriété intellectuelle</h2>
        <p>
          Le Service, son logiciel, sa présentation et la marque LitReview sont protégés et appartiennent à l’Éditeur.
          Aucune cession de droits n’est consentie à l’Utilisateur, qui bénéficie d’un droit d’usage personnel et non
          exclusif pendant la durée de son accès.
        </p>
        <p>
          Les notices issues de PubMed restent des données de la National Library of Medicine (NLM) des États-Unis. Les
          résumés d’articles demeurent le texte de leurs auteurs et éditeurs&nbsp;; ils sont affichés à des fins
          d’information et de recherche, et toute réutilisation doit respecter leurs droits. Les requêtes et notes
          saisies par l’Utilisateur lui appartiennent&nbsp;; il autorise l’Éditeur à les traiter dans la seule mesure
          nécessaire à la fourniture du Service.
        </p>
      </section>

      <section>
        <h2>8. Données personnelles</h2>
        <p>
          Les traitements de données personnelles réalisés dans le cadre du Service sont décrits dans la{" "}
          <a href="/privacy">politique de confidentialité</a>, et l’usage des cookies dans la{" "}
          <a href="/cookies">politique relative aux cookies</a>.
        </p>
      </section>

      <section>
        <h2>9. Publicité</h2>
        <p>
          Le Service peut présenter des informations sur les offres de l’Éditeur ou de partenaires, notamment dans la
          place de marché. Ces contenus sont clairement identifiés comme promotionnels. Aucun cookie publicitaire n’est
          déposé pour les afficher.
        </p>
      </section>

      <section>
        <h2>10. Référence commerciale</h2>
        <p>
          L’Éditeur peut citer le nom et le logo de l’Établissement abonné comme référence client dans ses supports de
          communication, sauf opposition de l’Établissement adressée par e-mail à {mail}. Cette mention ne concerne
          jamais les Utilisateurs à titre individuel.
        </p>
      </section>

      <section>
        <h2>11. Liens vers des sites tiers</h2>
        <p>
          Le Service contient des liens vers des sites tiers, par exemple les pages d’éditeurs accessibles par un
          identifiant DOI ou les liens vers le texte intégral. L’Éditeur n’exerce aucun contrôle sur ces sites et n’est
          pas responsable de leur contenu, de leur disponibilité ni de leurs pratiques en matière de données
          personnelles.
        </p>
      </section>

      <section>
        <h2>12. Modification des conditions</h2>
        <p>
          L’Éditeur peut modifier les présentes Conditions. Toute modification est notifiée par e-mail à l’Utilisateur
          et devient applicable 15 jours après cette notification. L’Utilisateur qui refuse les nouvelles Conditions
          peut supprimer son Compte avant leur entrée en application&nbsp;; à défaut, la poursuite de l’utilisation du
          Service vaut acceptation.
        </p>
      </section>

      <section>
        <h2>13. Droit applicable et juridiction</h2>
        <p>
          Les présentes Conditions sont soumises au droit français. En cas de différend, les parties recherchent d’abord
          une solution amiable. À défaut, compétence est attribuée aux tribunaux de Paris, sous réserve des règles
          impératives contraires.
        </p>
      </section>
    </article>
  );
}
