import type { Stats } from 'node:fs';

export const USERNS_RESTRICTION: string;
export function sandboxProblem(
  sandbox: string,
  options?: {
    platform?: NodeJS.Platform;
    uid?: number | undefined;
    read?: (path: string, encoding: 'utf8') => string;
    stat?: (path: string) => Pick<Stats, 'uid' | 'mode'>;
  },
): string | null;
