// La pagina di un link di caricamento, da cui gli ospiti inviano file.
export default {
  title: 'Invia file',
  heading: 'Invia file a “{name}”',
  intro: 'Scegli i file da inviare. Non serve un account.',
  message: 'Messaggio',
  send: 'Invia file',
  needFiles: 'Scegli almeno un file.',
  done: 'Tutti i file sono stati caricati. Grazie!',
  more: 'Invia altri file',
  goneTitle: 'Link di caricamento non disponibile',
  goneText: 'Questo link di caricamento non esiste, è stato disattivato o è scaduto. Chiedine uno nuovo a chi te lo ha dato.',
};
