/** Copies `template` to `pgliteDir` unless a database appeared there meanwhile; returns whether it did. */
export function copyDataDir(template: string, pgliteDir: string): boolean;
