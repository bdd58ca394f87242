/**
 * Alias operations: the owner creates, changes and deletes an alias; members
 * see it (and the shares uploaded through it); guests upload with its id.
 * Only the owner changes or deletes an alias: a member asking gets
 * `forbidden` (403), anybody else `not-found` (404) — the alias is invisible
 * to them. Business outcomes (taken id, validity over the maximum, unknown
 * member accounts, a size limit over `share.max-size`) are `{success:false}`
 * results. A link is open to guests while it is enabled, its owner active and
 * its expiry (if any) not reached. The id of a deleted or renamed link is
 * retired: only its owner may use it again.
 */
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { cleanDisplayName } from '../../common/display-name.js';
import { formatDuration } from '../../common/durations.js';
import { addressGroup } from '../../common/ip-ranges.js';
import { forbidden, notFound } from '../../common/errors.js';
import { randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import { formatSize } from '../../common/sizes.js';
import { failId, ok, okId, type BasicResult, type IdResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import type { Accessor } from '../shares/accessor.js';
import {
  aliasExists,
  aliasIdTaken,
  deleteAlias,
  findAlias,
  insertAlias,
  isMember,
  listVisibleAliases,
  memberCount,
  membersOf,
  moveAlias,
  replaceMembers,
  searchOtherAccounts,
  unknownAccounts,
  updateAlias,
  type AliasValues,
} from './alias.repository.js';
import type { AccountLight, AliasChange, AliasDetail, AliasRecord, OpenAlias } from './alias.types.js';
import { linkLimit } from '../uploads/quota.js';

export interface AliasServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  maxValidity: number;
  /** `share.max-size`: the most a link's own size limit may be */
  maxSize: number;
  maxPageSize: number;
  /** `alias-member-enabled`: when false the member search answers 404 */
  memberSearchEnabled: boolean;
  /** keys the hash of guests' addresses (`GuestAccessor.guestKey`) */
  serverSecret: Uint8Array;
}

/** A guest: the accessor of an alias id. */
export type GuestAccessor = Extract<Accessor, { kind: 'alias' }>;

export interface AliasService {
  list(accountId: string, q: string): Promise<AliasDetail[]>;
  get(accountId: string, aliasId: string): Promise<AliasDetail>;
  create(accountId: string, change: AliasChange): Promise<IdResult>;
  modify(accountId: string, aliasId: string, change: AliasChange): Promise<IdResult>;
  remove(accountId: string, aliasId: string): Promise<BasicResult>;
  searchMembers(accountId: string, q: string): Promise<AccountLight[]>;
  openInfo(aliasId: string): Promise<OpenAlias>;
  /** The `Service-Alias` check for a guest at `client` (its address). */
  guestAccessor(aliasId: string, client: string): Promise<GuestAccessor | undefined>;
  /** Whether the account owns the alias or is one of its members. */
  canSee(accountId: string, aliasId: string): Promise<boolean>;
}

/** The members to store: given order, no duplicates, never the owner. */
const cleanMembers = (ownerId: string, members: string[]): string[] => [...new Set(members)].filter((m) => m !== ownerId);

export const createAliasService = (d: AliasServiceDeps): AliasService => {
  const { db } = d;

  const detailOf = async (aliases: AliasRecord[]): Promise<AliasDetail[]> => {
    const members = await membersOf(
      db,
      aliases.map((a) => a.id),
    );
    return aliases.map((a) => ({
      id: a.id,
      name: a.name,
      validity: a.validity,
      owner: a.ownerLogin,
      enabled: a.enabled,
      members: { items: members.get(a.id) ?? [] },
      created: a.created,
      message: a.message,
      maxSize: a.maxSize,
      expires: a.expires,
    }));
  };

  /** Whether guests may use the alias now. */
  const open = (a: AliasRecord | undefined): a is AliasRecord =>
    a !== undefined && a.enabled && a.ownerActive && (a.expires === null || a.expires > d.clock.now());

  /** The values to store: what the change gives, else what `current` has (modify) or none (create). */
  const valuesOf = (change: AliasChange, current?: AliasRecord): AliasValues => {
    // its length is bounded by the request schema; trimming only shortens it
    const message = change.message === undefined ? (current?.message ?? null) : change.message?.trim() || null;
    return {
      name: cleanDisplayName(change.name),
      validity: change.validity,
      enabled: change.enabled,
      message,
      maxSize: change.maxSize === undefined ? (current?.maxSize ?? null) : change.maxSize,
      expires: change.expires === undefined ? (current?.expires ?? null) : change.expires,
    };
  };

  const visible = async (accountId: string, aliasId: string): Promise<AliasRecord> => {
    const alias = await findAlias(db, aliasId);
    if (!alias || (alias.ownerId !== accountId && !(await isMember(db, aliasId, accountId)))) throw notFound('The alias');
    return alias;
  };

  /** The alias, when `accountId` owns it; `forbidden` for a member, `not-found` for anybody else. */
  const owned = async (accountId: string, aliasId: string): Promise<AliasRecord> => {
    const alias = await visible(accountId, aliasId);
    if (alias.ownerId !== accountId) throw forbidden('Only the owner of the alias can change or delete it.');
    return alias;
  };

  /** The business checks shared by create and modify; undefined when the change is acceptable. */
  const refusal = async (ownerId: string, change: AliasChange): Promise<IdResult | undefined> => {
    if (change.validity > d.maxValidity) return failId('alias.validity-exceeded', `Maximum validity (${formatDuration(d.maxValidity)}) exceeded`);
    if (change.maxSize != null && change.maxSize > d.maxSize) return failId('alias.max-size-exceeded', `Maximum size (${formatSize(d.maxSize)}) exceeded`);
    const unknown = await unknownAccounts(db, cleanMembers(ownerId, change.members));
    if (unknown.length) return failId('alias.unknown-members', `Unknown member account(s): ${unknown.join(', ')}`);
    return undefined;
  };

  const taken = (id: string) => failId('alias.id-taken', `The alias id '${id}' is already taken.`);

  return {
    /** Signed-in users: the aliases they own or are a member of, `q` matching the name, at most `max-page-size`. */
    async list(accountId, q) {
      return detailOf(await listVisibleAliases(db, accountId, q, d.maxPageSize));
    },

    /** Owner and members: the alias; `not-found` for anybody else or an unknown id. */
    async get(accountId, aliasId) {
      const [detail] = await detailOf([await visible(accountId, aliasId)]);
      return detail!;
    },

    /**
     * Signed-in users: a new alias owned by the caller, with the given id when
     * there is one (a taken id is a failure), a random id otherwise.
     */
    async create(accountId, change) {
      const values = valuesOf(change);
      const refused = await refusal(accountId, change);
      if (refused) return refused;
      const id = change.id || randomId();
      if (await aliasIdTaken(db, id, accountId)) return taken(id);
      try {
        await db.transaction().execute(async (trx) => {
          await insertAlias(trx, id, accountId, values, d.clock.now());
          await replaceMembers(trx, id, cleanMembers(accountId, change.members));
        });
      } catch (e) {
        // two requests racing for the same id: the loser's insert fails
        if (await aliasExists(db, id)) return taken(id);
        throw e;
      }
      return okId(id, 'alias.created', 'Alias successfully created.');
    },

    /**
     * The owner: changes name, validity, enabled, members, and the message,
     * size limit and expiry when the change carries them. Without `id` (or
     * with the current one) the id stays; with a new, free id the alias
     * moves there and its members and shares follow, in one transaction.
     */
    async modify(accountId, aliasId, change) {
      const alias = await owned(accountId, aliasId);
      const values = valuesOf(change, alias);
      const refused = await refusal(accountId, change);
      if (refused) return refused;
      const target = change.id || alias.id;
      if (target !== alias.id && (await aliasIdTaken(db, target, accountId))) return taken(target);
      try {
        await db.transaction().execute(async (trx) => {
          if (target === alias.id) await updateAlias(trx, alias.id, values);
          else await moveAlias(trx, alias, target, values, d.clock.now());
          await replaceMembers(trx, target, cleanMembers(accountId, change.members));
        });
      } catch (e) {
        if (target !== alias.id && (await aliasExists(db, target)) && (await aliasExists(db, alias.id))) return taken(target);
        throw e;
      }
      return okId(target, 'alias.modified', 'Alias successfully modified.');
    },

    /** The owner: deletes the alias; its shares stay, no longer linked to it, and its id is never given to another account. */
    async remove(accountId, aliasId) {
      await owned(accountId, aliasId);
      await db.transaction().execute((trx) => deleteAlias(trx, aliasId, accountId, d.clock.now()));
      return ok('alias.deleted', 'Alias deleted.');
    },

    /**
     * Signed-in users: other accounts to choose members from (`id`, `login`),
     * `q` matching the login; `not-found` when `alias-member-enabled` is false.
     */
    async searchMembers(accountId, q) {
      if (!d.memberSearchEnabled) throw notFound('The member search');
      return searchOtherAccounts(db, accountId, q, d.maxPageSize);
    },

    /** Anyone: what the guest page shows; `not-found` unless the alias is open to guests. */
    async openInfo(aliasId) {
      const a = await findAlias(db, aliasId);
      if (!open(a)) throw notFound('The alias');
      return {
        id: a.id,
        name: a.name,
        enabled: a.enabled,
        validity: a.validity,
        maxSize: linkLimit(a.maxSize, d.maxSize),
        members: await memberCount(db, a.id),
        message: a.message,
        expires: a.expires,
      };
    },

    /** The `Service-Alias` check: the accessor of an alias open to guests, else undefined. */
    async guestAccessor(aliasId, client) {
      const a = await findAlias(db, aliasId);
      if (!open(a)) return undefined;
      // the address is kept only as this hash, keyed so it cannot be looked up from the table alone
      const guestKey = createHmac('sha256', d.serverSecret).update(addressGroup(client)).digest('base64url');
      return { kind: 'alias', aliasId: a.id, ownerId: a.ownerId, aliasName: a.name, validity: a.validity, guestKey };
    },

    async canSee(accountId, aliasId) {
      const a = await findAlias(db, aliasId);
      return a !== undefined && (a.ownerId === accountId || (await isMember(db, aliasId, accountId)));
    },
  };
};
