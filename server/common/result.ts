/** The seed's generic result: business outcomes travel as values, not exceptions. */
export interface BasicResult {
  success: boolean;
  message: string;
}

export interface IdResult extends BasicResult {
  id: string;
}

export const ok = (message: string): BasicResult => ({ success: true, message });
export const fail = (message: string): BasicResult => ({ success: false, message });
export const okId = (id: string, message: string): IdResult => ({ success: true, message, id });
export const failId = (message: string): IdResult => ({ success: false, message, id: '' });
