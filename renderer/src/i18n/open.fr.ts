// La page d'un partage publié pour ses destinataires.
export default {
  title: 'Fichiers partagés',
  defaultTitle: 'Fichiers partagés avec vous',
  passwordTitle: 'Ce partage est protégé',
  passwordText: 'Saisissez le mot de passe reçu pour voir les fichiers.',
  password: 'Mot de passe',
  unlock: 'Afficher les fichiers',
  wrongPassword: "Le mot de passe n'est pas correct. Veuillez réessayer.",
  goneTitle: 'Partage indisponible',
  goneText: "Ce partage n'existe pas, a expiré ou a été consulté autant de fois que permis.",
};
