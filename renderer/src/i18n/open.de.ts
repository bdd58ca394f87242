// Die Seite einer veröffentlichten Freigabe für die Empfänger.
export default {
  title: 'Freigegebene Dateien',
  defaultTitle: 'Für Sie freigegebene Dateien',
  passwordTitle: 'Diese Freigabe ist geschützt',
  passwordText: 'Das erhaltene Passwort eingeben, um die Dateien zu sehen.',
  password: 'Passwort',
  unlock: 'Dateien anzeigen',
  wrongPassword: 'Das Passwort ist nicht richtig. Bitte erneut versuchen.',
  goneTitle: 'Freigabe nicht verfügbar',
  goneText: 'Diese Freigabe existiert nicht, ist abgelaufen oder wurde so oft aufgerufen wie erlaubt.',
};
