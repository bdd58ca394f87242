export declare function ensureElectronSqlite(options: {
  moduleDir: string;
  buildDir: string;
  electronVersion: string;
  platform?: string;
  arch?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<{ path: string } | { reason: string }>;
export declare function ensureProjectElectronSqlite(root: string): Promise<{ path: string } | { reason: string }>;
