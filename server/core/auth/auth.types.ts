import type { ResultCode } from '../../common/result.js';

/** The answer to a login, a session renewal and a proxy login, with the result's `code`. */
export interface AuthResult {
  id: string;
  user: string;
  admin: boolean;
  success: boolean;
  message: string;
  code: ResultCode;
  token: string | null;
  validMs: number;
}

export const loginFailed = (message = 'Login failed.'): AuthResult => ({
  id: '',
  user: '',
  admin: false,
  success: false,
  message,
  code: 'auth.failed',
  token: null,
  validMs: 0,
});
