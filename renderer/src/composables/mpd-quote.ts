// Building daemon commands from user text: every argument quoted and escaped,
// so a title with a quote or a backslash cannot change the command.

/** `"value"` with `\` and `"` escaped, as the daemon's protocol wants. */
export function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A command line from a name and arguments (numbers as they are, strings quoted). */
export function command(name: string, ...args: Array<string | number>): string {
  return [name, ...args.map((a) => (typeof a === 'number' ? String(Math.trunc(a)) : quote(a)))].join(' ');
}
