// The recipient's page of a published share.
export default {
  title: 'Shared files',
  defaultTitle: 'Files shared with you',
  passwordTitle: 'This share is protected',
  passwordText: 'Enter the password you were given to see the files.',
  password: 'Password',
  unlock: 'Show the files',
  wrongPassword: 'The password is not correct. Please try again.',
  goneTitle: 'Share not available',
  goneText: 'This share does not exist, has expired or has been viewed as often as allowed.',
};
