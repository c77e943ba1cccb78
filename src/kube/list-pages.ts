import { classifyKubeError } from './errors.js';

export interface PageRequest {
  readonly limit?: number;
  readonly _continue?: string;
  /** The list is started over in one request after its continue token expired. */
  readonly restart?: boolean;
}

export interface ListPage<T> {
  readonly items: T[];
  readonly metadata?:
    { readonly _continue?: string | undefined; readonly remainingItemCount?: number | undefined } | undefined;
}

/**
 * Follows `continue` tokens until the list is complete. When a token expires mid-way (410), starts over
 * with one unpaginated request, as client-go's pager does (FullListIfExpired).
 */
export async function listAllPages<T>(
  fetchPage: (page: PageRequest) => Promise<ListPage<T>>,
  chunkSize: number,
  each: (item: T) => T = (item) => item,
  /** After each page but the last: items so far and the server's remainingItemCount. */
  onPage?: (read: number, remaining: number | undefined, done: boolean) => void,
): Promise<T[]> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    let page: ListPage<T>;
    try {
      page = await fetchPage(chunkSize > 0 ? { limit: chunkSize, ...(token ? { _continue: token } : {}) } : {});
    } catch (err) {
      if (token === undefined || classifyKubeError(err, undefined).kind !== 'expired') throw err;
      const full = await fetchPage({ restart: true });
      return full.items.map(each);
    }
    for (const item of page.items) items.push(each(item));
    token = chunkSize > 0 ? page.metadata?._continue || undefined : undefined;
    if (token) onPage?.(items.length, page.metadata?.remainingItemCount, false);
  } while (token);
  return items;
}
