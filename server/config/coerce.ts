/**
 * Turns one raw leaf value (from HOCON, JSON, `${?VAR}` or the environment,
 * where everything is a string) into its typed value, or says what is wrong.
 */
import { parseDuration } from '../common/durations.js';
import { parseSize } from '../common/sizes.js';
import type { LeafSpec, Raw } from './spec-kit.js';

export type Coerced = { ok: true; value: unknown } | { ok: false; problem: string };

const fail = (problem: string): Coerced => ({ ok: false, problem });
const ok = (value: unknown): Coerced => ({ ok: true, value });

const trueWords = new Set(['true', 'yes', 'on', '1']);
const falseWords = new Set(['false', 'no', 'off', '0']);

const toInt = (raw: Raw): number | undefined => {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : undefined;
  if (typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw)) {
    const n = Number(raw);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
};

/** A list from an array, a JSON array text, or a comma-separated text. */
const toList = (raw: Raw): Raw[] | undefined => {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      return Array.isArray(parsed) ? (parsed as Raw[]) : undefined;
    } catch {
      return undefined;
    }
  }
  return text === '' ? [] : text.split(',').map((s) => s.trim());
};

const range = (min?: number, max?: number): string =>
  min !== undefined && max !== undefined ? ` ${min}-${max}` : min !== undefined ? ` >= ${min}` : '';

const inRange = (n: number, min?: number, max?: number): boolean =>
  (min === undefined || n >= min) && (max === undefined || n <= max);

/** The typed value of `raw` for a leaf spec. */
export const coerceLeaf = (spec: LeafSpec, raw: Raw): Coerced => {
  switch (spec.kind) {
    case 'string':
      return typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean'
        ? ok(String(raw))
        : fail('expected a string');
    case 'bool': {
      if (typeof raw === 'boolean') return ok(raw);
      const word = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
      return trueWords.has(word) ? ok(true) : falseWords.has(word) ? ok(false) : fail('expected true or false');
    }
    case 'int': {
      const n = toInt(raw);
      return n !== undefined && inRange(n, spec.min, spec.max)
        ? ok(n)
        : fail(`expected an integer${range(spec.min, spec.max)}`);
    }
    case 'duration': {
      const ms = parseDuration(raw);
      return ms !== undefined && inRange(ms, spec.min)
        ? ok(ms)
        : fail(`expected a duration such as "4 minutes" or milliseconds${spec.min ? ' above 0' : ''}`);
    }
    case 'size': {
      const bytes = parseSize(raw);
      return bytes !== undefined && inRange(bytes, spec.min)
        ? ok(bytes)
        : fail(`expected a size such as "512K", "1.5G" or bytes${spec.min ? ' above 0' : ''}`);
    }
    case 'enum': {
      const text = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
      const found = spec.values.find((v) => v.toLowerCase() === text);
      return found !== undefined ? ok(found) : fail(`expected one of ${spec.values.join(', ')}`);
    }
    case 'int-list': {
      const items = toList(raw)?.map(toInt);
      return items && items.every((n) => n !== undefined && inRange(n, spec.min))
        ? ok(items)
        : fail(`expected a list of integers${range(spec.min)} (JSON array or comma-separated)`);
    }
    case 'string-list': {
      const items = toList(raw);
      return items && items.every((s) => typeof s === 'string' || typeof s === 'number')
        ? ok(items.map(String))
        : fail('expected a list of strings (JSON array or comma-separated)');
    }
  }
};
