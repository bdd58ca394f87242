// Die Seite eines Upload-Links, über die Gäste Dateien senden.
export default {
  title: 'Dateien senden',
  heading: 'Dateien an „{name}“ senden',
  intro: 'Wähl die Dateien aus, die du senden möchtest. Ein Konto brauchst du nicht.',
  message: 'Nachricht',
  send: 'Dateien senden',
  needFiles: 'Wähl mindestens eine Datei aus.',
  done: 'Alle Dateien hochgeladen. Vielen Dank!',
  more: 'Weitere Dateien senden',
  goneTitle: 'Upload-Link nicht verfügbar',
  goneText: 'Dieser Upload-Link existiert nicht, wurde abgeschaltet oder ist abgelaufen. Frag die Person, die ihn dir geschickt hat, nach einem neuen.',
};
