import { sql, type RawBuilder } from 'kysely';

/**
 * `lower(<column>) LIKE '%<q>%'`, with `%` and `_` in `q` matching themselves.
 * The escape character is `!` because a backslash is read differently by
 * SQLite, PostgreSQL and MariaDB string literals.
 */
export const containsIgnoreCase = (column: string, q: string): RawBuilder<boolean> => {
  const pattern = `%${q.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '!'`;
};
