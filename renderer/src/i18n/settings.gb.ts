// The user's settings page.
export default {
  title: 'Settings',
  nav: 'Settings',
  timezone: {
    title: 'Time zone',
    text: 'Dates are shown in this time zone. The choice is kept in this browser.',
    current: 'Dates are shown in {zone}.',
    filter: 'Find a time zone',
    filterPlaceholder: 'e.g. Berlin',
    choose: 'Time zone',
    automatic: 'Automatic (this browser: {zone})',
    reset: 'Use the browser’s time zone',
  },
  email: {
    title: 'E-mail address',
    label: 'E-mail',
    hint: 'Used for notices about uploads through your upload links. Leave empty to remove it.',
    save: 'Save e-mail',
  },
  password: {
    title: 'Password',
    old: 'Current password',
    new: 'New password',
    repeat: 'Repeat the new password',
    save: 'Change password',
    empty: 'Please enter a new password.',
    mismatch: 'The new passwords do not match.',
    external: 'Your account signs in through another service; its password cannot be changed here.',
    signedOutElsewhere: 'Changing the password signed you out on every other device.',
  },
  sessions: {
    title: 'Sessions',
    text: 'Signs you out in every browser and on every device where you are signed in, this one included. Use it when you lost a device or signed in on a computer you do not trust.',
    signOutAll: 'Sign out everywhere',
    question: 'Sign out on every device?',
  },
  autoPublish: {
    title: 'Publishing',
    label: 'Publish new shares right after the upload',
    hint: 'Kept in this browser.',
  },
};
