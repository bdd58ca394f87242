/**
 * Who acts on shares: a signed-in user, or a guest holding an alias id (the
 * alias issue mounts the upload routes under `/alias` with that accessor).
 * A guest acts for the alias owner but only on shares created through that
 * alias.
 */
export type Accessor =
  | { kind: 'user'; accountId: string; login: string; admin: boolean }
  | {
      kind: 'alias';
      aliasId: string;
      ownerId: string;
      aliasName: string;
      validity: number;
      /** who the guest is for the link's allowance: a keyed hash of the client address (an IPv6 address by its /64) */
      guestKey: string;
    };

/** The account that owns what this accessor creates. */
export const ownerOf = (a: Accessor): string => (a.kind === 'user' ? a.accountId : a.ownerId);
