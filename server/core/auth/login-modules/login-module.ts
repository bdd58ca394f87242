/**
 * A login module checks a user name and password. Modules are tried in
 * ascending `order`; the first that does not `pass` decides.
 */
export type LoginOutcome =
  /** not responsible for this user: try the next module */
  | { kind: 'pass' }
  | { kind: 'fail' }
  /**
   * The credentials are good. `source` is the account source used when the
   * account has to be created (`intern` accounts are never created here).
   */
  | {
      kind: 'success';
      login: string;
      source: string;
      admin: boolean;
      /**
       * The module is configured for exactly this login and takes over an
       * internal account of the same name (the `fixed` admin over an admin
       * account generated before it was configured).
       */
      ownsLogin?: boolean;
    };

export interface LoginModule {
  readonly name: string;
  readonly order: number;
  /** `login` is a valid ident, already lower-cased. Never throws: failures are `fail`. */
  check(login: string, password: string): Promise<LoginOutcome>;
}

export const pass: LoginOutcome = { kind: 'pass' };
export const failed: LoginOutcome = { kind: 'fail' };
export const external = (login: string, admin = false): LoginOutcome => ({
  kind: 'success',
  login,
  source: 'extern',
  admin,
});
