// The name a guest gave on an upload page, remembered in this browser so that the next
// send (through any upload link) is signed the same way without typing it again.
const KEY = 'guestName';

/** Characters the server keeps of a sender's name. */
export const MAX_GUEST_NAME = 100;

export function readGuestName(): string {
  try {
    return window.localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function writeGuestName(name: string): void {
  try {
    if (name) window.localStorage.setItem(KEY, name);
    else window.localStorage.removeItem(KEY);
  } catch {
    // storage off or full: the name is simply asked again next time
  }
}
