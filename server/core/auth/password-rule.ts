import { fail, type BasicResult } from '../../common/result.js';

/** Characters of a password as people count them (code points, so an emoji is one). */
export const passwordLength = (password: string): number => [...password].length;

/**
 * The rule for every password someone sets (`backend.auth.password-min-length`):
 * a `success:false` result when `password` is shorter, else undefined.
 */
export const checkPasswordRule = (password: string, minLength: number): BasicResult | undefined =>
  passwordLength(password) < minLength
    ? fail('account.password-too-short', `The password must have at least ${minLength} characters.`)
    : undefined;
