// Building daemon commands from user text: every argument quoted and escaped,
// so a title with a quote or a backslash cannot change the command.

/**
 * `"value"` with `\` and `"` escaped, as the daemon's protocol wants. The daemon reads
 * one command per line and has no escape for a line break, so text with a line break
 * or NUL is refused (it would start a second command).
 */
export function quote(value: string): string {
  if (/[\r\n\0]/.test(value)) throw new RangeError('A line break or NUL cannot be sent to the music player');
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A command line from a name and arguments (numbers as they are, strings quoted). */
export function command(name: string, ...args: Array<string | number>): string {
  return [name, ...args.map((a) => (typeof a === 'number' ? String(Math.trunc(a)) : quote(a)))].join(' ');
}
