/**
 * The bytes of JSON's structure, for the scans that find where each item of a JSON list ends without
 * parsing it (json-list-stream.ts): a snapshot file's and a LIST answer's.
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const NEWLINE = 0x0a;
export const RETURN = 0x0d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
/** JSON's whitespace. */
export const isBlank = (byte: number) => byte === 0x20 || byte === NEWLINE || byte === RETURN || byte === 0x09;
