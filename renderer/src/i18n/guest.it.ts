// La pagina di caricamento da cui gli ospiti inviano file.
export default {
  title: 'Invia file',
  heading: 'Invia file a “{name}”',
  intro: 'Scegli i file da inviare. Non serve un account.',
  message: 'Messaggio',
  send: 'Invia file',
  needFiles: 'Scegli almeno un file.',
  done: 'Tutti i file sono stati caricati. Grazie!',
  more: 'Invia altri file',
  goneTitle: 'Pagina di caricamento non disponibile',
  goneText: 'Questa pagina di caricamento non esiste, è stata disattivata o è scaduta. Chiedi un nuovo link a chi ti ha dato questo.',
};
