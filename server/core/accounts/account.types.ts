/** Account state: `Active` or `Disabled` (input case-insensitive, output capitalised). */
export type AccountState = 'Active' | 'Disabled';

export const parseAccountState = (v: unknown): AccountState | undefined => {
  if (typeof v !== 'string') return undefined;
  const l = v.toLowerCase();
  return l === 'active' ? 'Active' : l === 'disabled' ? 'Disabled' : undefined;
};

/** An account as the core sees it (never a database row). */
export interface Account {
  id: string;
  login: string;
  /** `intern`, `extern` or `oauth:<provider>` */
  source: string;
  state: AccountState;
  admin: boolean;
  email: string | null;
  loginCount: number;
  lastLogin: number | null;
  created: number;
}

/** The account shape of the API (`AccountDetail`). */
export interface AccountDetail extends Account {
  shares: number;
}

export interface AccountLight {
  id: string;
  login: string;
}
