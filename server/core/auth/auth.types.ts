/** The seed's authentication result (login, session renewal, proxy login). */
export interface AuthResult {
  id: string;
  user: string;
  admin: boolean;
  success: boolean;
  message: string;
  token: string | null;
  validMs: number;
}

export const loginFailed = (message = 'Login failed.'): AuthResult => ({
  id: '',
  user: '',
  admin: false,
  success: false,
  message,
  token: null,
  validMs: 0,
});
