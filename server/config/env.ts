/**
 * The mechanical environment override: `SERVICE_` + the key path below
 * `service.restserver`, `.` and `-` replaced by `_`, upper-cased. A value from
 * the environment replaces the file's value. Maps and lists of objects can be
 * given whole as JSON; named entries are reachable when the defaults or the
 * file define them (`SERVICE_BACKEND_FILES_STORES_DATABASE_ENABLED`), entries
 * of a configured list by index. `SERVICE_CONFIG_FILE` names the file itself.
 */
import { envName, isObject } from './paths.js';
import type { Issues } from './resolve.js';
import { evalDefault, type DefaultContext, type Raw, type RawObject, type Spec } from './spec-kit.js';
import { closest } from './suggest.js';

export type Env = Record<string, string | undefined>;

/** The variable naming the configuration file when the caller gives none. */
export const CONFIG_FILE_VAR = 'SERVICE_CONFIG_FILE';

interface Walk {
  env: Env;
  ctx: DefaultContext;
  issues: Issues;
  /** every variable name a key of this configuration answers to */
  known: Set<string>;
}

/**
 * Writes the environment's values into `tree` (the `service.restserver`
 * object, modified in place). Map entries whose defaults depend on the data
 * directory are looked up with `ctx`. Unused `SERVICE_*` variables are warned about.
 */
export const applyEnv = (spec: Spec, tree: RawObject, env: Env, ctx: DefaultContext, issues: Issues): void => {
  const w: Walk = { env, ctx, issues, known: new Set([CONFIG_FILE_VAR]) };
  if (spec.kind !== 'group') return;
  for (const [key, child] of Object.entries(spec.children)) applyAt(child, tree, key, [key], w);
  for (const name of Object.keys(env)) {
    if (!name.startsWith('SERVICE_') || w.known.has(name) || env[name] === undefined) continue;
    const hint = closest(name, w.known);
    issues.warnings.push(`environment variable ${name}: no such key, ignored${hint ? `; did you mean ${hint}?` : ''}`);
  }
};

/** Applies the environment to `parent[key]`, described by `spec`. */
const applyAt = (spec: Spec, parent: RawObject, key: string, segs: string[], w: Walk): void => {
  const name = envName(segs);
  if (spec.kind !== 'group') w.known.add(name);
  const value = w.env[name];
  switch (spec.kind) {
    case 'group':
      return withObject(parent, key, (obj) => {
        for (const [k, child] of Object.entries(spec.children)) applyAt(child, obj, k, [...segs, k], w);
      });
    case 'map':
    case 'object-list': {
      const list = spec.kind === 'object-list';
      if (value !== undefined) setJson(parent, key, value, list ? 'array or object' : 'object', name, w);
      const current = parent[key];
      if (list && Array.isArray(current)) {
        current.forEach((item, i) => {
          if (isObject(item)) for (const [k, c] of Object.entries(spec.entry.children)) applyAt(c, item, k, [...segs, String(i), k], w);
        });
        return;
      }
      const ids = new Set([...Object.keys(evalDefault(spec.default, w.ctx)), ...Object.keys(objectAt(parent, key))]);
      return withObject(parent, key, (obj) => {
        for (const id of ids) applyAt(spec.entry, obj, id, [...segs, id], w);
      });
    }
    default:
      if (value !== undefined) parent[key] = value;
  }
};

const objectAt = (parent: RawObject, key: string): RawObject => {
  const v = parent[key];
  return isObject(v) ? v : {};
};

/** Runs `fill` on the object at `parent[key]`, creating it only when something was set. */
const withObject = (parent: RawObject, key: string, fill: (obj: RawObject) => void): void => {
  const current = parent[key];
  if (current !== undefined && !isObject(current)) return; // the file's bad value is reported by validation
  const obj = current ?? {};
  fill(obj);
  if (current === undefined && Object.keys(obj).length > 0) parent[key] = obj;
};

const setJson = (parent: RawObject, key: string, text: string, kind: 'object' | 'array or object', name: string, w: Walk) => {
  try {
    const parsed = JSON.parse(text) as Raw;
    if (isObject(parsed) || (kind !== 'object' && Array.isArray(parsed))) {
      parent[key] = parsed;
      return;
    }
  } catch {
    // reported below
  }
  w.issues.errors.push(`environment variable ${name}: expected a JSON ${kind}, got ${JSON.stringify(text)}`);
};
