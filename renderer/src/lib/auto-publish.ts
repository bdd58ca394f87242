// The user's auto-publish opt-out (only meaningful when the server enables
// `autoPublishEnabled`), stored per browser.
const key = 'service-auto-publish';

/** true unless the user switched auto-publishing off in this browser */
export function autoPublishWanted(): boolean {
  try {
    return localStorage.getItem(key) !== 'false';
  } catch {
    return true;
  }
}

/** Records the user's choice (the settings page toggle). */
export function setAutoPublishWanted(wanted: boolean): void {
  try {
    localStorage.setItem(key, wanted ? 'true' : 'false');
  } catch {
    // no storage: the default (on) applies
  }
}
