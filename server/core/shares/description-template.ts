/**
 * A bounded mustache renderer for share descriptions. mustache.js parses the
 * template (tags, sections, standalone lines, set delimiters, comments); the
 * token tree is then rendered here, over plain data only: names resolve to own
 * properties (no prototype, no function is ever called), partials render
 * nothing, and the cost is bounded whatever the template says:
 *
 * - sections nest at most `depth` deep, else the template is refused before
 *   anything is rendered (nested sections over a list cost items^depth);
 * - rendering stops after `steps` tokens (loops that produce nothing still
 *   cost time) or `output` characters, and what was produced so far is kept.
 */
import Mustache from 'mustache';

export interface TemplateLimits {
  /** sections inside sections */
  depth: number;
  /** characters of output */
  output: number;
  /** tokens visited, every repetition counted */
  steps: number;
}

/**
 * The limits of a share description. The data has two levels (the share, its
 * files), so a section per level plus one inverted section inside each is
 * already generous. 256 KiB hold a link list of the 1000 files a share may
 * have; 200 000 steps take well under 50 ms.
 */
export const DESCRIPTION_LIMITS: TemplateLimits = { depth: 4, output: 256 * 1024, steps: 200_000 };

/** The result: the text, and whether a limit cut it short. */
export interface Rendered {
  text: string;
  truncated: boolean;
}

/** mustache.js's token: type, name or text, start, end, children of a section. */
type Token = [string, string, number, number, Token[]?, ...unknown[]];

class Budget extends Error {}

const depthOf = (tokens: readonly Token[], limit: number, depth = 0): number => {
  let deepest = depth;
  for (const t of tokens) {
    if ((t[0] === '#' || t[0] === '^') && t[4]) {
      if (depth + 1 > limit) return depth + 1;
      deepest = Math.max(deepest, depthOf(t[4], limit, depth + 1));
      if (deepest > limit) return deepest;
    }
  }
  return deepest;
};

/** A dotted name: the innermost context where the whole path exists as own properties wins. */
const lookup = (stack: readonly unknown[], name: string): unknown => {
  if (name === '.') return stack[stack.length - 1];
  const parts = name.split('.');
  for (let i = stack.length - 1; i >= 0; i--) {
    let v: unknown = stack[i];
    let found = true;
    for (const p of parts) {
      if (typeof v === 'object' && v !== null && Object.hasOwn(v, p)) v = (v as Record<string, unknown>)[p];
      else {
        found = false;
        break;
      }
    }
    if (found) return v;
  }
  return undefined;
};

/**
 * Renders `template` over `view` within `limits`; `escape` turns a `{{name}}`
 * value into text (`{{{name}}}` and `{{&name}}` insert `String(value)`); a
 * variable naming a list or an object inserts nothing.
 * Undefined when the template does not parse or nests sections deeper than
 * `limits.depth`.
 */
export const renderTemplate = (
  template: string,
  view: object,
  escape: (value: unknown) => string,
  limits: TemplateLimits = DESCRIPTION_LIMITS,
): Rendered | undefined => {
  let tokens: Token[];
  try {
    // A fresh writer: mustache's shared cache would keep every template forever.
    tokens = new Mustache.Writer().parse(template) as Token[];
  } catch {
    return undefined;
  }
  if (depthOf(tokens, limits.depth) > limits.depth) return undefined;

  const out: string[] = [];
  let length = 0;
  let steps = 0;
  const emit = (s: string) => {
    if (length + s.length > limits.output) {
      out.push(s.slice(0, limits.output - length));
      throw new Budget();
    }
    out.push(s);
    length += s.length;
  };
  const step = () => {
    if (++steps > limits.steps) throw new Budget();
  };
  const run = (list: readonly Token[], stack: unknown[]): void => {
    for (const t of list) {
      step();
      const [type, name] = t;
      if (type === 'text') emit(name);
      else if (type === 'name' || type === '&') {
        // only plain values: a list or an object has no text of its own
        const v = lookup(stack, name);
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') emit(type === 'name' ? escape(v) : String(v));
      } else if (type === '#') {
        const v = lookup(stack, name);
        if (Array.isArray(v)) {
          for (const item of v) {
            step();
            run(t[4] ?? [], [...stack, item]);
          }
        } else if (v) run(t[4] ?? [], [...stack, v]);
      } else if (type === '^') {
        const v = lookup(stack, name);
        if (!v || (Array.isArray(v) && v.length === 0)) run(t[4] ?? [], stack);
      }
      // '>' partials (there are none), '!' comments and '=' delimiter changes render nothing
    }
  };
  try {
    run(tokens, [view]);
    return { text: out.join(''), truncated: false };
  } catch (e) {
    if (!(e instanceof Budget)) throw e;
    return { text: out.join(''), truncated: true };
  }
};
