/**
 * Remembers, per page number, the cursor that continues after the previous page (the API's
 * `nextCursor`), so stepping forward pages by keyset — fast at any depth — while a jump to a
 * page never seen falls back to the offset. Forget everything when filters, sort or size change.
 */
export class CursorPages {
  private cursors = new Map<number, string>();
  private signature = '';

  /** Drops the cursors when the list they belong to changed. */
  reset(signature: string): void {
    if (signature === this.signature) return;
    this.signature = signature;
    this.cursors.clear();
  }

  remember(page: number, nextCursor: string | null): void {
    if (nextCursor) this.cursors.set(page + 1, nextCursor);
  }

  /** `{cursor}` for a page reached by stepping forward, `{page}` otherwise. */
  paramsFor(page: number): { cursor: string } | { page: number } {
    const cursor = page > 1 ? this.cursors.get(page) : undefined;
    return cursor ? { cursor } : { page };
  }
}
