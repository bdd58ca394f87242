/**
 * The vocabulary of the configuration spec (`spec.ts`): node kinds, their
 * builders, and `ValueOf`, the type a spec node loads into. Keys are the
 * kebab-case HOCON keys; loaded values use camelCase keys, durations in
 * milliseconds and sizes in bytes.
 */

/** What a default may depend on: the resolved data directory. */
export interface DefaultContext {
  dataDir: string;
}

/** A default value, or a function of the resolved data directory. */
export type Def<T> = T | ((ctx: DefaultContext) => T);

/** A raw configuration value as HOCON/JSON (or the environment) gives it. */
export type Raw = string | number | boolean | null | Raw[] | { [key: string]: Raw };
export type RawObject = { [key: string]: Raw };

interface LeafCommon {
  doc: string;
  /** must be given (map and list entries without a sensible default) */
  required?: boolean;
  /** never echo the value in messages */
  secret?: boolean;
  /** empty means "not set", and `null` reads as empty (string keys only) */
  optional?: boolean;
  /** the default as the documentation shows it, when it depends on the machine */
  shownDefault?: string;
}

export interface StringSpec extends LeafCommon {
  kind: 'string';
  default: Def<string>;
}
export interface IntSpec extends LeafCommon {
  kind: 'int';
  default: Def<number>;
  min?: number;
  max?: number;
}
export interface BoolSpec extends LeafCommon {
  kind: 'bool';
  default: Def<boolean>;
}
/** Written as `4 minutes` or milliseconds; loaded as milliseconds. */
export interface DurationSpec extends LeafCommon {
  kind: 'duration';
  default: Def<string>;
  min?: number;
}
/** Written as `512K` or bytes; loaded as bytes. */
export interface SizeSpec extends LeafCommon {
  kind: 'size';
  default: Def<string>;
  min?: number;
}
export interface EnumSpec<V extends string = string> extends LeafCommon {
  kind: 'enum';
  values: readonly V[];
  default: Def<V>;
}
export interface IntListSpec extends LeafCommon {
  kind: 'int-list';
  default: Def<number[]>;
  min?: number;
}
export interface StringListSpec extends LeafCommon {
  kind: 'string-list';
  default: Def<string[]>;
}

export type LeafSpec =
  | StringSpec
  | IntSpec
  | BoolSpec
  | DurationSpec
  | SizeSpec
  | EnumSpec
  | IntListSpec
  | StringListSpec;

export interface GroupSpec<C extends Record<string, Spec> = Record<string, Spec>> {
  kind: 'group';
  doc: string;
  /** starts its own section in the generated documentation */
  title?: string;
  children: C;
}

/** `<key>.<id>`: entries added by the file; `default` holds the predefined ones. */
export interface MapSpec<E extends Spec = Spec> {
  kind: 'map';
  doc: string;
  entry: E;
  default: Def<RawObject>;
}

/**
 * A list of objects, written as a list or as named entries (`<id> = {...}`).
 * `default` holds named entries: named entries from the file are merged into
 * them by id, a configured list replaces them. Loaded as a list either way.
 */
export interface ObjectListSpec<E extends GroupSpec = GroupSpec> {
  kind: 'object-list';
  doc: string;
  entry: E;
  default: Def<RawObject>;
}

export type Spec = LeafSpec | GroupSpec<Record<string, Spec>> | MapSpec<Spec> | ObjectListSpec<GroupSpec>;

/** `app-icon-dark` → `appIconDark` */
export type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** The loaded value of a spec node. */
export type ValueOf<S> = S extends { kind: 'group'; children: infer C }
  ? { -readonly [K in keyof C & string as Camel<K>]: ValueOf<C[K]> }
  : S extends { kind: 'map'; entry: infer E }
    ? Record<string, ValueOf<E>>
    : S extends { kind: 'object-list'; entry: infer E }
      ? ValueOf<E>[]
      : S extends { kind: 'enum'; values: readonly (infer V)[] }
        ? V
        : S extends { kind: 'string' }
          ? string
          : S extends { kind: 'int' | 'duration' | 'size' }
            ? number
            : S extends { kind: 'bool' }
              ? boolean
              : S extends { kind: 'int-list' }
                ? number[]
                : S extends { kind: 'string-list' }
                  ? string[]
                  : never;

/** Runtime twin of `Camel`. */
export const camel = (key: string): string => key.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

type Extra<T> = Omit<Partial<T>, 'kind' | 'default' | 'doc' | 'values'>;

export const str = (d: Def<string>, doc: string, extra: Extra<StringSpec> = {}): StringSpec => ({
  kind: 'string',
  default: d,
  doc,
  ...extra,
});
export const int = (d: Def<number>, doc: string, extra: Extra<IntSpec> = {}): IntSpec => ({
  kind: 'int',
  default: d,
  doc,
  ...extra,
});
export const bool = (d: Def<boolean>, doc: string, extra: Extra<BoolSpec> = {}): BoolSpec => ({
  kind: 'bool',
  default: d,
  doc,
  ...extra,
});
export const duration = (d: Def<string>, doc: string, extra: Extra<DurationSpec> = {}): DurationSpec => ({
  kind: 'duration',
  default: d,
  doc,
  ...extra,
});
export const size = (d: Def<string>, doc: string, extra: Extra<SizeSpec> = {}): SizeSpec => ({
  kind: 'size',
  default: d,
  doc,
  ...extra,
});
export const oneOf = <const V extends string>(
  values: readonly V[],
  d: NoInfer<V>,
  doc: string,
  extra: Extra<EnumSpec<V>> = {},
): EnumSpec<V> => ({ kind: 'enum', values, default: d, doc, ...extra });
export const ints = (d: Def<number[]>, doc: string, extra: Extra<IntListSpec> = {}): IntListSpec => ({
  kind: 'int-list',
  default: d,
  doc,
  ...extra,
});
export const strings = (d: Def<string[]>, doc: string, extra: Extra<StringListSpec> = {}): StringListSpec => ({
  kind: 'string-list',
  default: d,
  doc,
  ...extra,
});
export const group = <C extends Record<string, Spec>>(doc: string, children: C, title?: string): GroupSpec<C> =>
  title === undefined ? { kind: 'group', doc, children } : { kind: 'group', doc, title, children };
export const mapOf = <E extends Spec>(doc: string, entry: E, d: Def<RawObject> = {}): MapSpec<E> => ({
  kind: 'map',
  doc,
  entry,
  default: d,
});
export const listOf = <E extends GroupSpec>(doc: string, entry: E, d: Def<RawObject> = {}): ObjectListSpec<E> => ({
  kind: 'object-list',
  doc,
  entry,
  default: d,
});

/** Evaluates a default against the context. */
export const evalDefault = <T>(d: Def<T>, ctx: DefaultContext): T =>
  typeof d === 'function' ? (d as (c: DefaultContext) => T)(ctx) : d;
