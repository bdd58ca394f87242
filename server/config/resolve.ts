/**
 * Walks the spec together with the configured (raw) tree: fills defaults,
 * coerces and checks every leaf, converts keys to camelCase and reports
 * unknown keys. Problems are collected, never thrown.
 */
import { coerceLeaf } from './coerce.js';
import { isObject, keyPatterns, mergeRaw, showKey, showValue } from './paths.js';
import { camel, evalDefault, type DefaultContext, type LeafSpec, type Raw, type Spec } from './spec-kit.js';
import { closest, instantiate } from './suggest.js';

/** Errors stop the start; warnings are logged. */
export interface Issues {
  errors: string[];
  warnings: string[];
}

interface Walk {
  ctx: DefaultContext;
  issues: Issues;
  patterns: string[][];
}

/**
 * The loaded value of `raw` against `spec` (`raw` undefined: the defaults).
 * `segs` is the key path below `service.restserver`.
 */
export const resolveTree = (spec: Spec, raw: Raw | undefined, ctx: DefaultContext, issues: Issues): unknown =>
  resolveNode(spec, raw, [], { ctx, issues, patterns: keyPatterns(spec) });

const resolveNode = (spec: Spec, raw: Raw | undefined, segs: string[], w: Walk): unknown => {
  switch (spec.kind) {
    case 'group':
      return resolveGroup(spec.children, raw, segs, w);
    case 'map':
      return resolveMap(spec, raw, segs, w);
    case 'object-list': {
      if (Array.isArray(raw)) return raw.map((item, i) => resolveNode(spec.entry, item, [...segs, String(i)], w));
      if (raw !== undefined && !isObject(raw)) return expected('a list of objects or named entries', raw, segs, w, []);
      return Object.values(resolveMap(spec, raw, segs, w));
    }
    default: {
      if (raw === null && spec.optional) raw = '';
      if (raw === undefined) {
        if (spec.required) w.issues.errors.push(`${showKey(segs)}: is required`);
        raw = evalDefault<Raw>(spec.default, w.ctx);
      }
      const result = coerceLeaf(spec, raw);
      if (result.ok) return result.value;
      w.issues.errors.push(`${showKey(segs)}: ${result.problem}, got ${showValue(raw, spec.secret)}`);
      return coerceDefault(spec, w.ctx);
    }
  }
};

const resolveGroup = (children: Record<string, Spec>, raw: Raw | undefined, segs: string[], w: Walk) => {
  if (raw !== undefined && !isObject(raw)) {
    w.issues.errors.push(`${showKey(segs)}: expected an object, got ${showValue(raw)}`);
    raw = undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(children)) out[camel(key)] = resolveNode(child, raw?.[key], [...segs, key], w);
  for (const key of Object.keys(raw ?? {})) if (!(key in children)) warnUnknown([...segs, key], w);
  return out;
};

/** Named entries of the file merged by id into the spec's named defaults. */
const resolveMap = (spec: Extract<Spec, { kind: 'map' | 'object-list' }>, raw: Raw | undefined, segs: string[], w: Walk) => {
  if (raw !== undefined && !isObject(raw)) {
    expected('an object', raw, segs, w, undefined);
    raw = undefined;
  }
  const defaults = evalDefault(spec.default, w.ctx);
  const ids = [...new Set([...Object.keys(defaults), ...Object.keys(raw ?? {})])];
  const out: Record<string, unknown> = {};
  for (const id of ids) out[id] = resolveNode(spec.entry, mergeRaw(defaults[id], raw?.[id]), [...segs, id], w);
  return out;
};

const expected = <T>(what: string, raw: Raw | undefined, segs: string[], w: Walk, fallback: T): T => {
  w.issues.errors.push(`${showKey(segs)}: expected ${what}, got ${showValue(raw)}`);
  return fallback;
};

const coerceDefault = (spec: LeafSpec, ctx: DefaultContext): unknown => {
  const result = coerceLeaf(spec, evalDefault<Raw>(spec.default, ctx));
  return result.ok ? result.value : undefined;
};

const warnUnknown = (segs: string[], w: Walk): void => {
  const candidates = new Map(w.patterns.map((p) => [instantiate(p, segs).join('.'), instantiate(p, segs)]));
  const best = closest(segs.join('.'), candidates.keys());
  const hint = best === undefined ? '' : `; did you mean ${showKey(candidates.get(best) ?? [])}?`;
  w.issues.warnings.push(`${showKey(segs)}: unknown key, ignored${hint}`);
};
