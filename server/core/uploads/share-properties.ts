import { badRequest } from '../../common/errors.js';
import type { ShareProperties } from '../shares/share-create.js';

const optionalString = (o: Record<string, unknown>, key: string, max: number): string | null => {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length > max) throw badRequest(`meta.${key}`, `Invalid value for 'meta.${key}': a string of at most ${max} characters.`);
  return v;
};

const integer = (o: Record<string, unknown>, key: string, min: number): number => {
  const v = o[key];
  if (v === undefined || v === null) throw badRequest(`meta.${key}`, `Missing field 'meta.${key}'.`);
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw badRequest(`meta.${key}`, `Invalid value for 'meta.${key}': an integer of at least ${min}.`);
  }
  return v;
};

/**
 * The `meta` part of a multipart upload: JSON `ShareProperties` (the same
 * shape and rules as the JSON body of `/upload/new`); `bad-request` naming
 * the field otherwise.
 */
export const parseShareProperties = (text: string): ShareProperties => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest('meta', 'The meta part is not valid JSON.');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw badRequest('meta', 'The meta part must be a JSON object.');
  const o = json as Record<string, unknown>;
  const known = new Set(['name', 'validity', 'description', 'maxViews', 'password']);
  const unknown = Object.keys(o).find((k) => !known.has(k));
  if (unknown) throw badRequest(`meta.${unknown}`, `Unknown field 'meta.${unknown}'.`);
  return {
    name: optionalString(o, 'name', 254),
    validity: integer(o, 'validity', 0),
    description: optionalString(o, 'description', 1_000_000),
    maxViews: integer(o, 'maxViews', 1),
    password: optionalString(o, 'password', 1024),
  };
};
