export declare function nativeModuleDirs(root: string): string[];
export declare function keepNodeBuilds(root: string, run: () => Promise<number>): Promise<number>;
