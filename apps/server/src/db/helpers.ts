/** Small SQL helpers shared by the list endpoints and the write paths. */

/** `%text%` for ILIKE, with the caller's `%`, `_` and `\` taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** `text%` for LIKE/ILIKE prefix matches. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** True when a database error (possibly wrapped by drizzle) is a unique-constraint violation. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export function pageOffset(query: { page: number; pageSize: number }): number {
  return (query.page - 1) * query.pageSize;
}
