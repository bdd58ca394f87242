// Die Einstellungsseite.
export default {
  title: 'Einstellungen',
  nav: 'Einstellungen',
  timezone: {
    title: 'Zeitzone',
    text: 'Daten werden in dieser Zeitzone angezeigt. Die Wahl wird in diesem Browser gespeichert.',
    current: 'Daten werden in {zone} angezeigt.',
    filter: 'Zeitzone suchen',
    filterPlaceholder: 'z. B. Berlin',
    choose: 'Zeitzone',
    automatic: 'Automatisch (dieser Browser: {zone})',
    reset: 'Zeitzone des Browsers verwenden',
  },
  email: {
    title: 'E-Mail-Adresse',
    label: 'E-Mail',
    hint: 'Für Benachrichtigungen über Uploads über deine Upload-Links. Lass das Feld leer, um sie zu entfernen.',
    save: 'E-Mail speichern',
  },
  password: {
    title: 'Passwort',
    old: 'Aktuelles Passwort',
    new: 'Neues Passwort',
    repeat: 'Neues Passwort wiederholen',
    save: 'Passwort ändern',
    empty: 'Bitte gib ein neues Passwort ein.',
    mismatch: 'Die neuen Passwörter stimmen nicht überein.',
    external: 'Dein Konto meldet sich über einen anderen Dienst an; sein Passwort kann hier nicht geändert werden.',
    signedOutElsewhere: 'Mit der Änderung des Passworts wurdest du auf allen anderen Geräten abgemeldet.',
  },
  sessions: {
    title: 'Sitzungen',
    text: 'Meldet dich in jedem Browser und auf jedem Gerät ab, auf dem du angemeldet bist, auch hier. Nutze das, wenn du ein Gerät verloren oder dich an einem fremden Rechner angemeldet hast.',
    signOutAll: 'Überall abmelden',
    question: 'Auf allen Geräten abmelden?',
  },
  autoPublish: {
    title: 'Veröffentlichen',
    label: 'Neue Freigaben direkt nach dem Upload veröffentlichen',
    hint: 'Wird in diesem Browser gespeichert.',
  },
};
