import { Box } from 'ink';
import type { ReactNode } from 'react';

/**
 * The part of a live view that is redrawn in place, never taller than `rows` lines. A frame as tall as
 * the terminal cannot be erased (its top has scrolled away), so each redraw would leave a copy of it in
 * the scrollback; what does not fit is cut at the bottom instead. Its rows must not be wider than the
 * terminal either (the terminal would wrap them onto rows Ink does not count): DrainPodRow wraps a long
 * pod name in its own column. Finished lines go above it, once, in <Static>.
 */
export function LiveArea({ rows, children }: { rows: number; children: ReactNode }) {
  return (
    <Box flexDirection="column" maxHeight={Math.max(1, rows)} overflowY="hidden" flexShrink={0}>
      {/* At its own height, not squeezed into the limit: the overflow is cut, the lines keep theirs. */}
      <Box flexDirection="column" flexShrink={0}>
        {children}
      </Box>
    </Box>
  );
}
