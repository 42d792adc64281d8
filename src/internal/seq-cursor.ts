/**
 * The one list cursor: base64url of `[tag, seq]`, where seq is an insertion sequence (a SQLite rowid or
 * seq column, a PostgreSQL bigserial) and the tag names the list, so a cursor from one list is refused
 * by another instead of paging it from a wrong position.
 */
export function encodeSeqCursor(tag: string, seq: number): string {
  return Buffer.from(JSON.stringify([tag, seq])).toString('base64url');
}

/** The position a cursor of list `tag` holds, or undefined when it is not one that list returned. */
export function decodeSeqCursor(tag: string, cursor: string): number | undefined {
  try {
    const [found, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (found === tag && Number.isSafeInteger(seq)) return seq as number;
  } catch {
    // not base64url JSON: not ours either
  }
  return undefined;
}
