import { constants } from 'node:buffer';
import { open } from 'node:fs/promises';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  NEWLINE,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  RETURN,
  isBlank,
} from './json-bytes.js';

/**
 * The longest string V8 can make (2^29 − 24 UTF-16 code units on 64-bit Node). `JSON.parse` needs the whole
 * document as one string, so a file with more bytes than this may not be parsed in one go: `kubectl get -o
 * json` of a 150,000-pod cluster is about 1.5 GB.
 */
export const MAX_STRING_LENGTH = constants.MAX_STRING_LENGTH;

/**
 * A JSON document that is not valid, or that cannot be read in pieces; `offset` is a byte offset in the
 * document. A SyntaxError, as JSON.parse's: a LIST answer that ends before its JSON does is one
 * (kube/read-retry.ts takes that as an answer cut short).
 */
export class JsonStreamError extends SyntaxError {
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(message);
    this.name = 'JsonStreamError';
    this.offset = offset;
  }
}

/**
 * Parses one JSON document fed in chunks, never holding it as one string: a snapshot file (kubectl's
 * `List`, snapshot/load-file.ts) or a LIST answer as its bytes arrive (kube/informer.ts). The document is
 * a list: a top-level array, or a top-level object whose `items` is an array. Each element is parsed on
 * its own as soon as it is complete, and kept or handed to `onItem`; what lies outside the list
 * (apiVersion, kind, metadata) is small and parsed at the end. One small string per element is also what
 * the garbage collector handles best: a hundred thousand objects parsed from one huge string all land in
 * the old generation at once. A LIST answer's parse then overlaps its transfer, and the caller may strip
 * each item before the next arrives.
 *
 * Where an element ends is found by a scan that follows strings (jumping to the next quote or backslash)
 * and nesting. Pretty-printed lists
 * (kubectl's, jq's, JSON.stringify's) allow a shortcut: elements are separated by `},` + newline +
 * the indentation of the first element + `{`, which only a structural brace can be followed by (JSON
 * strings hold no raw newline). A piece cut there is checked by parsing it: a cut that is not really
 * between two elements leaves braces unbalanced and cannot parse, and the scan then takes over.
 */
export class JsonListStream {
  private readonly maxPieceBytes: number;
  private readonly items: unknown[] = [];
  /**
   * Bytes not consumed yet, at the start of `storage`; `bufferOffset` is the file offset of the first.
   * One storage is reused from chunk to chunk: a fresh buffer per chunk (16 MB, outside the JavaScript
   * heap) makes V8 collect garbage far more often, which tripled the time to read a 1.6 GB List.
   */
  private storage: Buffer = Buffer.alloc(0);
  private buffer: Buffer = this.storage;
  private bufferOffset = 0;
  private scanned = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private topLevel: 'object' | 'array' | undefined;
  /** The last string met at depth 1: the key when a `[` follows. */
  private keyStart = -1;
  private lastKey = '';
  private phase: 'head' | 'elements' | 'tail' = 'head';
  /** Depth of the list's elements (1 in a top-level array, 2 under `items`); -1 outside the list. */
  private elementDepth = -1;
  private elementStart = -1;
  private tailStart = -1;
  /** The document outside the list, `{…"items": [` and `], "kind": …}`, with the file offset of each part. */
  private readonly outside: Array<{ text: string; offset: number }> = [];
  /** `,` + line break + indentation + `{` between pretty-printed elements; null: scan every byte. */
  private separator: Buffer | null | undefined;
  /**
   * With `dropManagedFields`: the bytes of the element being scanned that its `"managedFields":[…]` takes
   * (with one of the commas beside it), left out of its parse; -1 where none was found.
   */
  private skipFrom = -1;
  private skipTo = -1;
  /** The scan is inside that array. */
  private skipping = false;

  /**
   * `maxPieceBytes`: the most bytes one element, or the document outside the list, may take. `onItem`:
   * each element in turn, handed over instead of kept (end() then gives the list's `items` empty).
   */
  constructor(
    maxPieceBytes = 64 * 1024 * 1024,
    private readonly onItem: (item: unknown) => void = (item) => this.items.push(item),
    private readonly dropManagedFields = false,
  ) {
    this.maxPieceBytes = maxPieceBytes;
  }

  push(chunk: Buffer): void {
    this.append(chunk);
    if (this.bufferOffset === 0 && this.scanned === 0) {
      const start = this.buffer.subarray(0, BYTE_ORDER_MARK.length);
      if (start.length < BYTE_ORDER_MARK.length && BYTE_ORDER_MARK.subarray(0, start.length).equals(start)) return;
      if (start.equals(BYTE_ORDER_MARK)) this.discard(BYTE_ORDER_MARK.length);
    }
    this.scan(false);
    this.dropConsumed();
  }

  /** The whole document, once every chunk was pushed. */
  end(): unknown {
    this.scan(true);
    if (this.phase === 'elements' || this.inString || this.depth !== 0 || !this.topLevel) {
      throw new JsonStreamError('Unexpected end of JSON input', this.bufferOffset + this.buffer.length);
    }
    const from = this.phase === 'tail' ? this.tailStart : 0;
    this.outside.push({ text: this.buffer.toString('utf8', from), offset: this.bufferOffset + from });
    const outside = this.parseOutside();
    if (this.phase === 'head') return outside; // no list: the document was small enough to keep whole
    return Array.isArray(outside) ? this.items : { ...(outside as object), items: this.items };
  }

  /** Walks the buffer from where the last push stopped; `final` when no more bytes will come. */
  private scan(final: boolean): void {
    const buf = this.buffer;
    const n = buf.length;
    let i = this.scanned;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    // The next backslash at or after i (n: none), looked up again only once i has passed it.
    let backslash = -1;
    scan: for (; i < n; i++) {
      if (inString) {
        if (escaped) {
          escaped = false; // byte i is the escaped one
          continue;
        }
        // Most of a document's bytes are in strings: jump to the quote that ends this one, or an escape.
        if (backslash < i) {
          backslash = buf.indexOf(BACKSLASH, i);
          if (backslash < 0) backslash = n;
        }
        let quote = buf.indexOf(QUOTE, i);
        if (quote < 0) quote = n;
        if (backslash < quote) {
          escaped = true;
          i = backslash;
        } else if (quote === n) {
          i = n - 1;
        } else {
          inString = false;
          i = quote;
          if (depth === 1 && this.phase === 'head') this.lastKey = buf.toString('utf8', this.keyStart, i);
        }
        continue;
      }
      const c = buf[i]!;
      if (depth === this.elementDepth && this.elementStart < 0 && !isBlank(c) && c !== COMMA && c !== CLOSE_BRACKET) {
        if (c === OPEN_BRACE && this.separator !== null) {
          const next = this.parseSeparated(i, final);
          if (next === 'wait') break;
          if (next !== 'scan') {
            i = next - 1;
            continue;
          }
        }
        this.elementStart = i;
      }
      switch (c) {
        case QUOTE:
          // A key of an object inside an element (its metadata): managedFields, to leave out? A key cut by
          // the chunk's end is looked at again with the next chunk.
          if (this.dropManagedFields && depth === this.elementDepth + 2 && this.elementStart >= 0) {
            if (this.findManagedFields(i, final) === 'wait') break scan;
          }
          inString = true;
          if (depth === 1) this.keyStart = i + 1;
          break;
        case OPEN_BRACE:
        case OPEN_BRACKET:
          if (depth === 0) this.startDocument(c, i);
          depth++;
          if (c === OPEN_BRACKET && this.phase === 'head' && this.opensList(depth)) this.enterList(i, depth);
          break;
        case CLOSE_BRACE:
        case CLOSE_BRACKET:
          depth--;
          if (this.skipping && depth === this.elementDepth + 2) {
            this.skipping = false;
            this.skipTo = i + 1;
          }
          if (depth === this.elementDepth && this.elementStart >= 0) this.endElement(i + 1);
          else if (depth === this.elementDepth - 1) this.leaveList(i);
          break;
        case COMMA:
          if (depth === this.elementDepth && this.elementStart >= 0) this.endElement(i);
          break;
        default:
          if (depth === 0 && !isBlank(c)) this.startDocument(c, i);
      }
    }
    this.scanned = i;
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
  }

  private startDocument(c: number, i: number): void {
    if (this.topLevel) return;
    if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
      throw new JsonStreamError('a document this large must be a JSON object or array', this.bufferOffset + i);
    }
    this.topLevel = c === OPEN_BRACE ? 'object' : 'array';
  }

  private opensList(depth: number): boolean {
    return this.topLevel === 'array' ? depth === 1 : depth === 2 && this.lastKey === 'items';
  }

  private enterList(i: number, depth: number): void {
    this.outside.push({ text: this.buffer.toString('utf8', 0, i + 1), offset: this.bufferOffset });
    this.phase = 'elements';
    this.elementDepth = depth;
  }

  /** `i` is the list's `]`; a scalar element before it ends there. */
  private leaveList(i: number): void {
    if (this.elementStart >= 0) this.endElement(i);
    this.phase = 'tail';
    this.elementDepth = -1;
    this.tailStart = i;
  }

  private endElement(end: number): void {
    const start = this.elementStart;
    this.elementStart = -1;
    if (this.skipTo > 0) {
      // `{"managedFields":[…],` loses the comma after the array; `,"managedFields":[…]` the one before it.
      const from = this.skipFrom;
      const to = this.buffer[from] === QUOTE && this.buffer[this.skipTo] === COMMA ? this.skipTo + 1 : this.skipTo;
      this.skipFrom = this.skipTo = -1;
      const text = this.buffer.toString('utf8', start, from) + this.buffer.toString('utf8', to, end);
      this.onItem(parseAt(text, this.bufferOffset + start));
      return;
    }
    this.skipFrom = this.skipTo = -1;
    this.skipping = false;
    this.onItem(parseAt(this.buffer.toString('utf8', start, end), this.bufferOffset + start));
  }

  /**
   * At a key's opening quote in an object directly inside an element (its metadata): where that key is
   * `"managedFields":[`, as the API server writes it (compact, right after `{` or `,`), notes where it
   * starts; the scan notes where its array ends. Inside a JSON string a quote is always escaped, so these
   * bytes after `{` or `,` are structure, never a string's content. Anything else (spaces around the
   * colon) is parsed whole, as without the option. 'wait': the bytes so far match, the rest has not arrived.
   */
  private findManagedFields(i: number, final: boolean): 'wait' | undefined {
    if (this.skipFrom >= 0) return undefined;
    const buf = this.buffer;
    const before = buf[i - 1];
    if (before !== COMMA && before !== OPEN_BRACE) return undefined;
    const arrived = Math.min(buf.length - i, MANAGED_FIELDS.length);
    for (let k = 0; k < arrived; k++) if (buf[i + k] !== MANAGED_FIELDS[k]) return undefined;
    if (arrived < MANAGED_FIELDS.length) return final ? undefined : 'wait';
    this.skipFrom = before === COMMA ? i - 1 : i;
    this.skipping = true;
    return undefined;
  }

  /**
   * The shortcut at an element's `{`: parses the elements that a separator closes. Returns the index of
   * the next element's `{`, 'wait' for more bytes, or 'scan' to go on byte by byte.
   */
  private parseSeparated(start: number, final: boolean): number | 'scan' | 'wait' {
    const separator = this.separator ?? this.findSeparator(start);
    if (!separator) return 'scan';
    const buf = this.buffer;
    let from = start;
    for (let p = buf.indexOf(CLOSE_BRACE, start); p >= 0; p = buf.indexOf(CLOSE_BRACE, p + 1)) {
      if (buf[p + 1] !== COMMA || !startsWith(buf, p + 1, separator)) continue;
      let element: unknown;
      try {
        element = JSON.parse(buf.toString('utf8', from, p + 1));
      } catch {
        this.separator = null; // not a cut between elements after all, or broken JSON: the scan will tell
        return from > start ? from : 'scan';
      }
      this.onItem(element);
      from = p + separator.length;
    }
    if (from > start) return from;
    if (!final && buf.length - start <= this.maxPieceBytes) return 'wait';
    this.separator = null; // the last element, or a list that is not pretty-printed
    return 'scan';
  }

  /** The separator, when the first element starts its own line. */
  private findSeparator(start: number): Buffer | null {
    const newline = this.buffer.lastIndexOf(NEWLINE, start);
    const indentation = this.buffer.subarray(newline + 1, start);
    const pretty = newline >= 0 && indentation.every((c) => c === 0x20 || c === 0x09);
    const lineBreak = this.buffer[newline - 1] === RETURN ? '\r\n' : '\n';
    this.separator = pretty ? Buffer.concat([Buffer.from(`,${lineBreak}`), indentation, Buffer.from('{')]) : null;
    return this.separator;
  }

  /** Forgets the bytes already parsed; keeps the start of the document, an unfinished element, or the tail. */
  private dropConsumed(): void {
    const unfinished = this.elementStart >= 0 ? this.elementStart : this.scanned;
    const keepFrom = this.phase === 'head' ? 0 : this.phase === 'tail' ? this.tailStart : unfinished;
    if (this.buffer.length - keepFrom > this.maxPieceBytes) {
      const where = this.phase === 'elements' ? 'one element of the list' : "the document's fields outside its list";
      throw new JsonStreamError(`${where} takes more than ${this.maxPieceBytes} bytes`, this.bufferOffset + keepFrom);
    }
    this.discard(keepFrom);
    this.scanned -= keepFrom;
    this.keyStart -= keepFrom;
    if (this.elementStart >= 0) this.elementStart -= keepFrom;
    if (this.tailStart >= 0) this.tailStart -= keepFrom;
    if (this.skipFrom >= 0) this.skipFrom -= keepFrom;
    if (this.skipTo >= 0) this.skipTo -= keepFrom;
  }

  private append(chunk: Buffer): void {
    const length = this.buffer.length + chunk.length;
    if (length > this.storage.length) {
      const larger = Buffer.allocUnsafe(Math.max(length, 2 * this.storage.length));
      this.buffer.copy(larger);
      this.storage = larger;
    }
    chunk.copy(this.storage, this.buffer.length);
    this.buffer = this.storage.subarray(0, length);
  }

  /** Forgets the first `count` bytes. */
  private discard(count: number): void {
    if (count === 0) return;
    this.storage.copyWithin(0, count, this.buffer.length);
    this.buffer = this.storage.subarray(0, this.buffer.length - count);
    this.bufferOffset += count;
  }

  /** Parses `{…"items": [` + `], …}`, mapping an error's position back to the file. */
  private parseOutside(): unknown {
    const text = this.outside.map((part) => part.text).join('');
    try {
      return JSON.parse(text);
    } catch (err) {
      let position = positionOf(err) ?? text.length;
      for (const part of this.outside) {
        if (position < part.text.length || part === this.outside.at(-1)) throw syntaxError(err, part.offset + position);
        position -= part.text.length;
      }
      throw err;
    }
  }
}

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);
const MANAGED_FIELDS = Buffer.from('"managedFields":[');

function startsWith(buf: Buffer, at: number, prefix: Buffer): boolean {
  if (at + prefix.length > buf.length) return false;
  for (let k = 0; k < prefix.length; k++) if (buf[at + k] !== prefix[k]) return false;
  return true;
}

function parseAt(text: string, offset: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw syntaxError(err, offset + (positionOf(err) ?? text.length));
  }
}

/** Where V8's JSON.parse error says the text went wrong (a UTF-16 offset in the parsed text), if it says. */
export function positionOf(err: unknown): number | undefined {
  const m = /at position (\d+)/.exec(err instanceof Error ? err.message : '');
  return m ? Number(m[1]) : undefined;
}

/** V8's JSON.parse reason without its position, which counts from the start of the text that was parsed. */
export function jsonErrorReason(err: unknown): string {
  return (err instanceof Error ? err.message : String(err))
    .replace(/\s*(in JSON )?at position \d+.*$/, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '');
}

function syntaxError(err: unknown, offset: number): JsonStreamError {
  return new JsonStreamError(jsonErrorReason(err), offset);
}

/**
 * Reads a LIST answer's `body` to its end (see JsonListStream): each item to `onItem`; returns the rest,
 * `items` empty. `dropManagedFields`: each item's metadata.managedFields is left out before it is parsed
 * (a third of a pod's bytes as the API server sends it, which no reader of the snapshot uses).
 */
export async function readListItems(
  body: AsyncIterable<Uint8Array>,
  onItem: (item: unknown) => void,
  { dropManagedFields = false } = {},
): Promise<unknown> {
  const stream = new JsonListStream(undefined, onItem, dropManagedFields);
  for await (const bytes of body) {
    stream.push(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  return stream.end();
}

/** Reads a JSON list file of any size (see JsonListStream). */
export async function readJsonListFile(path: string, onBytes?: (bytesRead: number) => void): Promise<unknown> {
  const chunkBytes = 16 * 1024 * 1024;
  const file = await open(path, 'r');
  try {
    const stream = new JsonListStream();
    const chunk = Buffer.allocUnsafe(chunkBytes); // reused: the stream copies what it keeps
    let total = 0;
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      stream.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      onBytes?.(total);
    }
    return stream.end();
  } finally {
    await file.close();
  }
}
