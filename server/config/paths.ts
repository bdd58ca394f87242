/**
 * Key paths: how they are shown in messages and named in the environment,
 * and the list of every key the spec knows (for suggestions).
 */
import type { Raw, RawObject, Spec } from './spec-kit.js';
import { ROOT } from './spec.js';

/** `["bind", "port"]` → `service.restserver.bind.port`; segments with dots are quoted. */
export const showKey = (segs: readonly string[]): string =>
  [ROOT, ...segs.map((s) => (s.includes('.') ? JSON.stringify(s) : s))].join('.');

/** `["backend", "auth", "http-basic", "url"]` → `SERVICE_BACKEND_AUTH_HTTP_BASIC_URL`. */
export const envName = (segs: readonly string[]): string =>
  ['SERVICE', ...segs].join('_').replace(/[.-]/g, '_').toUpperCase();

/** A value for messages: JSON, or hidden for secrets. */
export const showValue = (value: unknown, secret = false): string => {
  if (secret) return '(hidden)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
};

/** Every key of the spec, map ids and list indexes written as `*` (groups included). */
export const keyPatterns = (spec: Spec, prefix: string[] = []): string[][] => {
  const own = prefix.length > 0 ? [prefix] : [];
  switch (spec.kind) {
    case 'group':
      return [...own, ...Object.entries(spec.children).flatMap(([k, s]) => keyPatterns(s, [...prefix, k]))];
    case 'map':
    case 'object-list':
      return [...own, ...keyPatterns(spec.entry, [...prefix, '*'])];
    default:
      return own;
  }
};

export const isObject = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy of a raw value (parser output is plain JSON). */
export const cloneRaw = <T extends Raw | undefined>(v: T): T => (v === undefined ? v : structuredClone(v));

/** `over` merged into `base`: objects key by key, anything else replaced. */
export const mergeRaw = (base: Raw | undefined, over: Raw | undefined): Raw | undefined => {
  if (over === undefined) return cloneRaw(base);
  if (!isObject(base) || !isObject(over)) return cloneRaw(over);
  const out: RawObject = cloneRaw(base);
  for (const [k, v] of Object.entries(over)) out[k] = mergeRaw(out[k], v) as Raw;
  return out;
};
