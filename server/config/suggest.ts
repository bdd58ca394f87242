/**
 * "Did you mean" for misspelt configuration keys and environment variables.
 */

/** Edit distance (insertions, deletions, substitutions) between two strings. */
export const levenshtein = (a: string, b: string): number => {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
    }
    prev = row;
  }
  return prev[b.length] as number;
};

/** The candidate closest to `target` (the first one on ties), or undefined when there is none. */
export const closest = (target: string, candidates: Iterable<string>): string | undefined => {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = levenshtein(target, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
};

/**
 * Instantiates key patterns (`*` stands for a map id or list index) with the
 * segments of `target`, so `stores.s3.buckt` is compared with `stores.s3.bucket`.
 */
export const instantiate = (pattern: readonly string[], target: readonly string[]): string[] =>
  pattern.map((seg, i) => (seg === '*' ? (target[i] ?? seg) : seg));
