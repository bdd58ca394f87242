export declare function electronExecutable(electronDir: string): string | null;
export declare function ensureElectron(options: {
  electronDir: string;
  stateFile: string;
  env?: NodeJS.ProcessEnv;
  now?: number;
  retryAfterMs?: number;
  timeoutMs?: number;
}): Promise<{ path: string } | { reason: string; tried: boolean }>;
