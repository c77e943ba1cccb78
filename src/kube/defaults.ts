/** kubectl's default --chunk-size: list objects in pages of this many. */
export const DEFAULT_CHUNK_SIZE = 500;

/** How long an exec credential plugin may run when --request-timeout is not given (kubectl has no bound). */
export const DEFAULT_EXEC_TIMEOUT_MS = 60_000;
