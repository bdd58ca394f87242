import { randomBytes } from 'node:crypto';

const identPattern = /^[A-Za-z0-9\-_@.]+$/;

/** Logins, ids, alias ids, invite keys: `A-Z a-z 0-9 - _ @ .`, not empty. */
export const isIdent = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 254 && identPattern.test(value);

/**
 * A random, URL-safe identifier of 192 bits (32 base64url characters). Every
 * character is an ident character, so generated ids pass `isIdent`.
 */
export const randomId = (): string => randomBytes(24).toString('base64url');
