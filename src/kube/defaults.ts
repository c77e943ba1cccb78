/** kubectl's default --chunk-size: list objects in pages of this many. */
export const DEFAULT_CHUNK_SIZE = 500;
