import { readFileSync } from 'node:fs';

export interface VersionInfo {
  version: string;
  builtAtMillis: number;
  builtAtString: string;
  gitCommit: string;
  gitVersion: string;
}

/**
 * The running version, read once from the nearest package.json and, when the
 * build wrote one, `build-info.json` next to it (commit and build time).
 */
export const readVersionInfo = (): VersionInfo => {
  const root = new URL('../../../', import.meta.url);
  const pkgUrl = [new URL('package.json', root), new URL('../package.json', root)].find((u) => {
    try {
      readFileSync(u);
      return true;
    } catch {
      return false;
    }
  });
  const pkg = pkgUrl ? (JSON.parse(readFileSync(pkgUrl, 'utf8')) as { version?: string }) : {};
  let build: { builtAt?: number; gitCommit?: string; gitVersion?: string } = {};
  try {
    build = JSON.parse(readFileSync(new URL('build-info.json', root), 'utf8')) as typeof build;
  } catch {
    // no build info: running from sources
  }
  const builtAt = build.builtAt ?? 0;
  return {
    version: pkg.version ?? '0.0.0',
    builtAtMillis: builtAt,
    builtAtString: builtAt ? new Date(builtAt).toISOString() : '',
    gitCommit: build.gitCommit ?? '',
    gitVersion: build.gitVersion ?? pkg.version ?? '',
  };
};
