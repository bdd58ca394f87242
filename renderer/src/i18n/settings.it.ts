// La pagina delle impostazioni dell’utente.
export default {
  title: 'Impostazioni',
  nav: 'Impostazioni',
  timezone: {
    title: 'Fuso orario',
    text: 'Le date vengono mostrate in questo fuso orario. La scelta resta salvata in questo browser.',
    current: 'Le date vengono mostrate in {zone}.',
    filter: 'Cerca un fuso orario',
    filterPlaceholder: 'ad es. Rome',
    choose: 'Fuso orario',
    automatic: 'Automatico (questo browser: {zone})',
    reset: 'Usa il fuso orario del browser',
  },
  email: {
    title: 'Indirizzo e-mail',
    label: 'E-mail',
    hint: 'Serve per avvisarti dei caricamenti sui tuoi link di caricamento. Lascia vuoto per rimuoverlo.',
    save: 'Salva e-mail',
  },
  password: {
    title: 'Password',
    old: 'Password attuale',
    new: 'Nuova password',
    repeat: 'Ripeti la nuova password',
    save: 'Cambia password',
    empty: 'Inserisci una nuova password.',
    mismatch: 'Le nuove password non coincidono.',
    external: 'Il tuo account accede tramite un altro servizio; la sua password non si può cambiare qui.',
    signedOutElsewhere: 'Cambiando la password sei stato disconnesso da tutti gli altri dispositivi.',
  },
  sessions: {
    title: 'Sessioni',
    text: 'Ti disconnette da tutti i browser e i dispositivi su cui hai effettuato l’accesso, compreso questo. Usalo se hai perso un dispositivo o hai effettuato l’accesso su un computer di cui non ti fidi.',
    signOutAll: 'Esci ovunque',
    question: 'Uscire su tutti i dispositivi?',
  },
  autoPublish: {
    title: 'Pubblicazione',
    label: 'Pubblica le nuove condivisioni subito dopo il caricamento',
    hint: 'Salvato in questo browser.',
  },
};
