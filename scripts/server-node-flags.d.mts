export function nodeFlagsOf(serve: string): string[];
export function serverNodeFlags(): string[];
