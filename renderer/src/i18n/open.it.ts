// La pagina di una condivisione pubblicata, per chi la riceve.
export default {
  title: 'File condivisi',
  defaultTitle: 'File condivisi con te',
  passwordTitle: 'Questa condivisione è protetta',
  passwordText: 'Inserisci la password che ti è stata data per vedere i file.',
  password: 'Password',
  unlock: 'Mostra i file',
  wrongPassword: 'La password non è corretta. Riprova.',
  goneTitle: 'Condivisione non disponibile',
  goneText: 'Questa condivisione non esiste, è scaduta o è già stata visualizzata il numero massimo di volte.',
};
