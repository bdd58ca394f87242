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
  /** plain text shown to guests; null or empty: none; undefined: unchanged (modify) or none (create) */
  message?: string | null;
  /** bytes one share of the link may hold; null: `share.max-size`; undefined as for `message` */
  maxSize?: number | null;
  /** epoch ms after which the link takes no uploads; null: never; undefined as for `message` */
  expires?: number | null;
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
  message: string | null;
  maxSize: number | null;
  expires: number | null;
}

/**
 * What the guest page shows before an upload (`GET /open/alias/{id}`): what the
 * owner chose to tell guests, never the owner's login or other account data.
 */
export interface OpenAlias {
  id: string;
  name: string;
  enabled: boolean;
  validity: number;
  /** the size limit of one share: the link's own, at most `share.max-size` */
  maxSize: number;
  /** how many members see the uploads besides the owner */
  members: number;
  /** plain text for guests, or null */
  message: string | null;
  /** epoch ms after which the link takes no uploads, or null */
  expires: number | null;
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
  message: string | null;
  maxSize: number | null;
  expires: number | null;
}

/** Someone to notify about an alias: the owner or a member. */
export interface AliasRecipient {
  accountId: string;
  login: string;
  email: string | null;
  owner: boolean;
}
