// La page d'alias où les invités téléversent des fichiers.
export default {
  title: 'Envoyer des fichiers',
  heading: 'Envoyer des fichiers à « {name} »',
  intro: "Choisissez les fichiers à envoyer. Aucun compte n'est nécessaire.",
  message: 'Message',
  send: 'Envoyer les fichiers',
  needFiles: 'Choisissez au moins un fichier.',
  done: 'Tous les fichiers ont été téléversés. Merci !',
  more: "Envoyer d'autres fichiers",
  goneTitle: 'Page de dépôt indisponible',
  goneText: "Cette page de dépôt n'existe pas, a été désactivée ou a expiré. Demandez un nouveau lien à la personne qui vous l'a donné.",
};
