/** The longest line of a command's output the run holds: longer ones are split into lines of this size. */
export const MAX_LINE_BYTES = 4096;

/** Ends each piece of a line split at MAX_LINE_BYTES, so that the reader knows it goes on. */
export const SPLIT_MARKER = ` [split: line longer than ${MAX_LINE_BYTES} bytes]`;

/**
 * Cuts a stream of output into lines with memory bounded in bytes: a line is held only up to `maxBytes`,
 * then handed on as a piece (marked with SPLIT_MARKER) and the rest follows as the next line. A command
 * that writes 30 MB without a newline costs `maxBytes`, not 30 MB. A piece is cut between UTF-8
 * characters, and a trailing CR (CRLF output) is dropped.
 */
export class OutputLines {
  /** The line so far: never more than maxBytes. */
  private pending = Buffer.alloc(0);

  constructor(private readonly maxBytes = MAX_LINE_BYTES) {}

  /** The lines `chunk` completes. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      this.append(chunk.subarray(start, newline === -1 ? chunk.length : newline), lines);
      if (newline === -1) return lines;
      lines.push(this.take(false));
      start = newline + 1;
    }
  }

  /** What is left once the stream ended: a last line without a newline. */
  end(): string[] {
    return this.pending.length > 0 ? [this.take(false)] : [];
  }

  private append(part: Buffer, lines: string[]): void {
    while (this.pending.length + part.length > this.maxBytes) {
      const room = this.maxBytes - this.pending.length;
      let cut = characterBoundary(part, room);
      // Nothing to hand on but a character's first bytes: bytes that are not text, cut anywhere.
      if (cut === 0 && this.pending.length === incompleteTail(this.pending)) cut = room;
      this.hold(part.subarray(0, cut));
      lines.push(this.take(true));
      part = part.subarray(cut);
    }
    this.hold(part);
  }

  /** A copy: a subarray would keep the whole chunk it came from alive. */
  private hold(part: Buffer): void {
    if (part.length > 0) this.pending = Buffer.concat([this.pending, part]);
  }

  /** The line held, and a piece's last character, if it is incomplete, kept to start the next one. */
  private take(split: boolean): string {
    const keep = split ? incompleteTail(this.pending) : 0;
    const text = this.pending.subarray(0, this.pending.length - keep).toString('utf8');
    this.pending = Buffer.from(this.pending.subarray(this.pending.length - keep));
    return split ? `${text}${SPLIT_MARKER}` : text.replace(/\r$/, '');
  }
}

/** The largest offset ≤ `at` in `bytes` that does not fall inside a UTF-8 character. */
function characterBoundary(bytes: Buffer, at: number): number {
  let cut = Math.min(at, bytes.length);
  while (cut > 0 && cut < bytes.length && isContinuation(bytes[cut]!)) cut -= 1;
  return cut;
}

/** How many bytes at the end of `bytes` are a UTF-8 character not yet complete (its first bytes). */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if (isContinuation(byte)) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/** 0b10xxxxxx: a byte inside a UTF-8 character, after its first. */
const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;
