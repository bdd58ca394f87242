// La página de subida donde los invitados envían archivos.
export default {
  title: 'Enviar archivos',
  heading: 'Enviar archivos a «{name}»',
  intro: 'Elige los archivos que quieres enviar. No necesitas cuenta.',
  message: 'Mensaje',
  send: 'Enviar archivos',
  needFiles: 'Elige al menos un archivo.',
  done: 'Se han subido todos los archivos. ¡Gracias!',
  more: 'Enviar más archivos',
  goneTitle: 'Página de subida no disponible',
  goneText: 'Esta página de subida no existe, se ha desactivado o ha caducado. Pide un enlace nuevo a quien te dio este.',
};
