import { createContext } from 'react';

/**
 * The terminal's width the live views lay their rows out to, when the caller knows it better than Ink's
 * stdout does: a frame drawn again as it was before a resize (live-view.ts) needs the old width.
 * Undefined: the width of Ink's stdout.
 */
export const ColumnsContext = createContext<number | undefined>(undefined);
