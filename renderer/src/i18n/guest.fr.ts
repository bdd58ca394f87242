// La page d’un lien de dépôt, où les invités envoient des fichiers.
export default {
  title: 'Envoyer des fichiers',
  heading: 'Envoyer des fichiers à « {name} »',
  intro: "Choisissez les fichiers à envoyer. Aucun compte n'est nécessaire.",
  message: 'Message',
  send: 'Envoyer les fichiers',
  needFiles: 'Choisissez au moins un fichier.',
  done: 'Tous les fichiers ont été téléversés. Merci !',
  more: "Envoyer d'autres fichiers",
  goneTitle: 'Lien de dépôt indisponible',
  goneText: "Ce lien de dépôt n'existe pas, a été désactivé ou a expiré. Demandez-en un nouveau à la personne qui vous l'a donné.",
};
