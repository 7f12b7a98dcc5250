import { inDateRange } from '../domain/dates.js';
import { ValidationError } from '../errors.js';

// Opaque page cursors: base64url of a text each list writes in its own form. A cursor is taken
// only when it is exactly what `encode` writes for the position it reads as, so a forged or
// altered one is refused here (422), never sent to the store.

/** The 422 of a cursor this service did not give out. */
export const badCursor = (cursor: string) =>
  new ValidationError([{ loc: ['query', 'cursor'], msg: 'is not a cursor this service gave: pass next_cursor as it came', type: 'value_error', input: cursor }]);

export interface CursorCodec<T> {
  encode(position: T): string;
  /** The position a cursor holds; a ValidationError (422) for anything `encode` did not write. */
  decode(cursor: string): T;
}

/** A codec from a list's text form: `write` a position, `read` it back (undefined: not one). */
export function cursorCodec<T>(write: (position: T) => string, read: (text: string) => T | undefined): CursorCodec<T> {
  const encode = (position: T) => Buffer.from(write(position)).toString('base64url');
  return {
    encode,
    decode(cursor) {
      const position = read(Buffer.from(cursor, 'base64url').toString('utf8'));
      if (position === undefined || encode(position) !== cursor) throw badCursor(cursor);
      return position;
    },
  };
}

const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A moment as a cursor holds it (toISOString's form) that exists, on a day the service takes. */
export const isCursorMoment = (s: string) => MOMENT.test(s) && !Number.isNaN(Date.parse(s)) && inDateRange(s.slice(0, 10));
