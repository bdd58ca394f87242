export declare function productionPackageDirs(root: string): string[];
