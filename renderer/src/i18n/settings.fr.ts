// La page des paramètres.
export default {
  title: 'Paramètres',
  nav: 'Paramètres',
  timezone: {
    title: 'Fuseau horaire',
    text: 'Les dates sont affichées dans ce fuseau horaire. Le choix est conservé dans ce navigateur.',
    current: 'Les dates sont affichées en {zone}.',
    filter: 'Chercher un fuseau horaire',
    filterPlaceholder: 'p. ex. Paris',
    choose: 'Fuseau horaire',
    automatic: 'Automatique (ce navigateur : {zone})',
    reset: 'Utiliser le fuseau du navigateur',
  },
  email: {
    title: 'Adresse e-mail',
    label: 'E-mail',
    hint: 'Utilisée pour les avis de dépôt via vos liens de dépôt. Laissez vide pour la supprimer.',
    save: 'Enregistrer l’e-mail',
  },
  password: {
    title: 'Mot de passe',
    old: 'Mot de passe actuel',
    new: 'Nouveau mot de passe',
    repeat: 'Répéter le nouveau mot de passe',
    save: 'Changer le mot de passe',
    empty: 'Veuillez saisir un nouveau mot de passe.',
    mismatch: 'Les nouveaux mots de passe ne correspondent pas.',
    external: 'Votre compte se connecte via un autre service ; son mot de passe ne peut pas être changé ici.',
    signedOutElsewhere: 'Le changement de mot de passe vous a déconnecté sur tous les autres appareils.',
  },
  sessions: {
    title: 'Sessions',
    text: 'Vous déconnecte dans tous les navigateurs et sur tous les appareils où vous êtes connecté, celui-ci compris. Utile si vous avez perdu un appareil ou vous êtes connecté sur un ordinateur auquel vous ne faites pas confiance.',
    signOutAll: 'Se déconnecter partout',
    question: 'Se déconnecter sur tous les appareils ?',
  },
  autoPublish: {
    title: 'Publication',
    label: 'Publier les nouveaux partages dès la fin du dépôt',
    hint: 'Conservé dans ce navigateur.',
  },
};
