// La página de un compartido publicado, para quien lo recibe.
export default {
  title: 'Archivos compartidos',
  defaultTitle: 'Archivos compartidos contigo',
  passwordTitle: 'Este compartido está protegido',
  passwordText: 'Escribe la contraseña que te han dado para ver los archivos.',
  password: 'Contraseña',
  unlock: 'Ver los archivos',
  wrongPassword: 'La contraseña no es correcta. Vuelve a intentarlo.',
  goneTitle: 'Compartido no disponible',
  goneText: 'Este compartido no existe, ha caducado o ya se ha visto tantas veces como se permitía.',
};
