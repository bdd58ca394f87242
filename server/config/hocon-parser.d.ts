// Types for the CommonJS HOCON parser (it ships none); only what `load.ts` uses.
declare module '@pushcorn/hocon-parser' {
  interface ParseOptions {
    /** file path or URL to read */
    url?: string;
    /** HOCON text */
    text?: string;
    /** spec-compliant mode: no `|` transforms, no `@` include shorthand */
    strict?: boolean;
    /** whether substitutions fall back to process.env */
    env?: boolean;
    /** values substitutions fall back to before the environment */
    scope?: Record<string, unknown>;
  }
  function parse(options: ParseOptions): Promise<unknown>;
  export default parse;
}
