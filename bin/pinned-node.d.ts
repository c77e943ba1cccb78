/** Types for pinned-node.js, which stays plain JavaScript so that an older Node.js can run it. */
export function pinnedNodePath(
  entryUrl: string,
  platform?: NodeJS.Platform | string,
  exists?: (path: string) => boolean,
): string | null;
export function runWithPinnedNode(entryUrl: string): Promise<boolean>;
export function followParent(): void;
