/** The API shapes of aliases (upload pages for guests) and their members. */

/** `AliasChange`: create or modify. `id` null or empty: a random id (create) or the current one (modify). */
export interface AliasChange {
  id: string | null;
  name: string;
  /** milliseconds; the validity of every share uploaded through the alias */
  validity: number;
  enabled: boolean;
  /** account ids */
  members: string[];
}

export interface AccountLight {
  id: string;
  login: string;
}

export interface AliasDetail {
  id: string;
  name: string;
  validity: number;
  /** the owner's login */
  owner: string;
  enabled: boolean;
  members: { items: AccountLight[] };
  created: number;
}

/** What the guest page shows before an upload (`GET /open/alias/{id}`). */
export interface OpenAlias {
  id: string;
  name: string;
  enabled: boolean;
  validity: number;
  /** the size limit of one share (`share.max-size`) */
  maxSize: number;
}

/** An alias row with its owner, inside the core. */
export interface AliasRecord {
  id: string;
  ownerId: string;
  ownerLogin: string;
  ownerActive: boolean;
  name: string;
  validity: number;
  enabled: boolean;
  created: number;
}

/** Someone to notify about an alias: the owner or a member. */
export interface AliasRecipient {
  accountId: string;
  login: string;
  email: string | null;
  owner: boolean;
}
