// La página de ajustes del usuario.
export default {
  title: 'Ajustes',
  nav: 'Ajustes',
  timezone: {
    title: 'Zona horaria',
    text: 'Las fechas se muestran en esta zona horaria. La elección se guarda en este navegador.',
    current: 'Las fechas se muestran en {zone}.',
    filter: 'Buscar una zona horaria',
    filterPlaceholder: 'p. ej., Madrid',
    choose: 'Zona horaria',
    automatic: 'Automática (este navegador: {zone})',
    reset: 'Usar la zona horaria del navegador',
  },
  email: {
    title: 'Dirección de correo electrónico',
    label: 'Correo electrónico',
    hint: 'Se usa para avisarte de las subidas a tus enlaces de subida. Déjalo vacío para quitarla.',
    save: 'Guardar correo electrónico',
  },
  password: {
    title: 'Contraseña',
    old: 'Contraseña actual',
    new: 'Nueva contraseña',
    repeat: 'Repite la nueva contraseña',
    save: 'Cambiar contraseña',
    empty: 'Escribe una contraseña nueva.',
    mismatch: 'Las contraseñas nuevas no coinciden.',
    external: 'Tu cuenta inicia sesión a través de otro servicio; su contraseña no se puede cambiar aquí.',
    signedOutElsewhere: 'Al cambiar la contraseña se ha cerrado tu sesión en todos los demás dispositivos.',
  },
  sessions: {
    title: 'Sesiones',
    text: 'Cierra tu sesión en todos los navegadores y dispositivos donde la tengas iniciada, incluido este. Úsalo si has perdido un dispositivo o has iniciado sesión en un ordenador que no es de confianza.',
    signOutAll: 'Cerrar sesión en todas partes',
    question: '¿Cerrar sesión en todos los dispositivos?',
  },
  autoPublish: {
    title: 'Publicación',
    label: 'Publicar los compartidos nuevos nada más subirlos',
    hint: 'Se guarda en este navegador.',
  },
};
