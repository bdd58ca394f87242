import { badRequest } from './errors.js';

const emailPattern = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+$/;

export const isEmail = (v: string): boolean => v.length <= 254 && emailPattern.test(v);

/**
 * An optional e-mail address from a request field: empty or null means none;
 * anything else must look like an address (400 naming `field` otherwise).
 */
export const optionalEmail = (v: string | null | undefined, field = 'email'): string | null => {
  const e = (v ?? '').trim();
  if (e && !isEmail(e)) throw badRequest(field, `Invalid value for '${field}': '${e}' is not an e-mail address.`);
  return e || null;
};
