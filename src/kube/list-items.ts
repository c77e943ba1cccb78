import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  isBlank,
} from '../json-bytes.js';

/**
 * A LIST answer's body (`{"kind":"PodList","metadata":{…},"items":[{…},{…}]}`) read as its bytes arrive:
 * each object of the top-level `items` array is parsed on its own (JSON.parse of its bytes) and handed over
 * as soon as its last byte is in, the rest (the list's kind and metadata) parsed once the body ends. The
 * parse of one list of tens of thousands of pods then overlaps its transfer, and what is held at a time is
 * the objects handed over (which the caller may strip) and the bytes of one object, not the whole body
 * as bytes, as a string and as the parse of every field of it at once.
 *
 * Only the scan for where each item ends is done here, byte by byte outside strings and with
 * Buffer.indexOf inside them; the parse itself is JSON.parse's. A body that ends before its JSON does
 * throws a SyntaxError, as JSON.parse of it would (kube/read-retry.ts takes that as an answer cut short).
 * snapshot/json-list-stream.ts reads a snapshot file's list the same way but keeps it whole (with the
 * file offsets its errors name); this hands each item over, for the caller to strip and keep.
 */

/** Where the envelope's text, at the `[` that opens an array at the top level, names that array `items`. */
const ITEMS_KEY = /"items"\s*:\s*$/;

type Mode = 'envelope' | 'between-items' | 'item';

export class ListItemSplitter {
  /** Nesting of objects and arrays outside strings: 1 inside the top-level object. */
  private depth = 0;
  private inString = false;
  /** The byte after a backslash in a string is skipped, here when the backslash ended the last chunk. */
  private escaped = false;
  private mode: Mode = 'envelope';
  /** The envelope's bytes (everything but the items' own) from earlier chunks. */
  private envelope: Buffer[] = [];
  /** The bytes of the item being read, from earlier chunks. */
  private item: Buffer[] = [];

  /** `onItem`: each item, parsed, in the order of the array. */
  constructor(private readonly onItem: (item: unknown) => void) {}

  /** The next bytes of the body. */
  push(bytes: Uint8Array): void {
    const chunk = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = chunk.length;
    /** Where the current region (the envelope's or an item's) started in this chunk. */
    let start = 0;
    let i = 0;
    if (this.escaped) {
      this.escaped = false;
      i = 1;
    }
    // The next backslash at or after i (length: none), looked up again only once i has passed it.
    let backslash = -1;
    while (i < length) {
      if (this.inString) {
        const quote = chunk.indexOf(QUOTE, i);
        if (backslash < i) {
          backslash = chunk.indexOf(BACKSLASH, i);
          if (backslash < 0) backslash = length;
        }
        if (backslash < length && (quote < 0 || backslash < quote)) {
          // An escape: the byte after it (maybe a quote) is part of the string.
          if (backslash + 1 >= length) {
            this.escaped = true;
            i = length;
          } else {
            i = backslash + 2;
          }
          continue;
        }
        if (quote < 0) {
          i = length;
          continue;
        }
        this.inString = false;
        i = quote + 1;
        continue;
      }
      const byte = chunk[i]!;
      if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (this.mode === 'between-items') {
          if (byte !== OPEN_BRACE) throw new SyntaxError('a list item is not an object');
          this.mode = 'item';
          start = i;
        } else if (this.mode === 'envelope' && this.depth === 1 && byte === OPEN_BRACKET) {
          if (ITEMS_KEY.test(this.envelopeText(chunk, start, i))) {
            this.envelope.push(Buffer.from(chunk.subarray(start, i + 1)));
            this.mode = 'between-items';
          }
        }
        this.depth += 1;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        this.depth -= 1;
        if (this.depth < 0) throw new SyntaxError(`unexpected '${String.fromCharCode(byte)}' in a list`);
        if (this.mode === 'item' && this.depth === 2) {
          this.emit(chunk, start, i + 1);
          this.mode = 'between-items';
        } else if (this.mode === 'between-items') {
          // The `]` that closes the items: the envelope goes on from it.
          this.mode = 'envelope';
          start = i;
        }
      } else if (this.mode === 'between-items' && byte !== COMMA && !isBlank(byte)) {
        throw new SyntaxError('a list item is not an object');
      }
      i += 1;
    }
    if (this.mode === 'envelope') this.envelope.push(Buffer.from(chunk.subarray(start)));
    else if (this.mode === 'item') this.item.push(Buffer.from(chunk.subarray(start)));
  }

  /** The body is over: its envelope, parsed, with `items` empty (they went to onItem). */
  end(): unknown {
    if (this.depth !== 0 || this.inString || this.escaped || this.mode !== 'envelope') {
      throw new SyntaxError('Unexpected end of JSON input');
    }
    return JSON.parse(Buffer.concat(this.envelope).toString('utf8'));
  }

  private envelopeText(chunk: Buffer, start: number, end: number): string {
    return Buffer.concat([...this.envelope, chunk.subarray(start, end)]).toString('utf8');
  }

  private emit(chunk: Buffer, start: number, end: number): void {
    const bytes = chunk.subarray(start, end);
    const whole = this.item.length > 0 ? Buffer.concat([...this.item, bytes]) : bytes;
    this.item = [];
    this.onItem(JSON.parse(whole.toString('utf8')));
  }
}

/** Reads a LIST answer's `body` to its end (see ListItemSplitter): each item to `onItem`; returns the envelope. */
export async function readListItems(
  body: AsyncIterable<Uint8Array>,
  onItem: (item: unknown) => void,
): Promise<unknown> {
  const splitter = new ListItemSplitter(onItem);
  for await (const chunk of body) splitter.push(chunk);
  return splitter.end();
}
