// Die Alias-Seite, über die Gäste Dateien hochladen.
export default {
  title: 'Dateien senden',
  heading: 'Dateien an „{name}“ senden',
  intro: 'Die zu sendenden Dateien auswählen. Ein Konto ist nicht nötig.',
  message: 'Nachricht',
  send: 'Dateien senden',
  needFiles: 'Mindestens eine Datei auswählen.',
  done: 'Alle Dateien hochgeladen. Vielen Dank!',
  more: 'Weitere Dateien senden',
  goneTitle: 'Upload-Seite nicht verfügbar',
  goneText: 'Diese Upload-Seite existiert nicht, wurde abgeschaltet oder ist abgelaufen. Bitte die Person, die den Link geschickt hat, um einen neuen.',
};
