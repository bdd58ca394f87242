// La página de un enlace de subida, donde los invitados envían archivos.
export default {
  title: 'Enviar archivos',
  heading: 'Enviar archivos a «{name}»',
  intro: 'Elige los archivos que quieres enviar. No necesitas cuenta.',
  message: 'Mensaje',
  send: 'Enviar archivos',
  needFiles: 'Elige al menos un archivo.',
  done: 'Se han subido todos los archivos. ¡Gracias!',
  more: 'Enviar más archivos',
  goneTitle: 'Enlace de subida no disponible',
  goneText: 'Este enlace de subida no existe, se ha desactivado o ha caducado. Pide uno nuevo a quien te lo dio.',
};
