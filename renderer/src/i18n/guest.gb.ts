// The page of an upload link, where guests send files.
export default {
  title: 'Send files',
  heading: 'Send files to “{name}”',
  intro: 'Choose the files to send. No account is needed.',
  message: 'Message',
  send: 'Send files',
  needFiles: 'Choose at least one file.',
  done: 'All files uploaded. Thank you!',
  more: 'Send more files',
  goneTitle: 'Upload link not available',
  goneText: 'This upload link does not exist, has been switched off or has expired. Ask the person who gave it to you for a new one.',
};
