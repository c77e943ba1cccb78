import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { listAllPages, type ListPage, type PageRequest } from '../../../src/kube/list-pages.js';
import { stripUnusedFields } from '../../../src/kube/reads.js';

/** A list of `total` numbered items served in pages the way the API server does (limit + continue). */
function pagedList(total: number, options: { expireAt?: string } = {}) {
  const requests: PageRequest[] = [];
  const fetchPage = async (page: PageRequest): Promise<ListPage<number>> => {
    requests.push(page);
    if (options.expireAt !== undefined && page._continue === options.expireAt) {
      throw new ApiException(
        410,
        'Gone',
        JSON.stringify({ kind: 'Status', code: 410, reason: 'Expired', message: 'too old' }),
        {},
      );
    }
    const start = page._continue ? Number(page._continue) : 0;
    const end = page.limit ? Math.min(total, start + page.limit) : total;
    const items = Array.from({ length: end - start }, (_, i) => start + i);
    return { items, metadata: end < total ? { _continue: String(end), remainingItemCount: total - end } : {} };
  };
  return { fetchPage, requests };
}

describe('listAllPages', () => {
  it('follows continue tokens until the list is complete', async () => {
    const { fetchPage, requests } = pagedList(1200);
    const items = await listAllPages(fetchPage, 500);
    expect(items).toEqual(Array.from({ length: 1200 }, (_, i) => i));
    expect(requests).toEqual([{ limit: 500 }, { limit: 500, _continue: '500' }, { limit: 500, _continue: '1000' }]);
  });

  it('reports after each page but the last how many items are read and how many remain', async () => {
    const { fetchPage } = pagedList(1200);
    const pages: [number, number | undefined][] = [];
    await listAllPages(fetchPage, 500, undefined, (read, remaining) => pages.push([read, remaining]));
    expect(pages).toEqual([
      [500, 700],
      [1000, 200],
    ]);
  });

  it('chunk size 0 lists everything in one request without a limit', async () => {
    const { fetchPage, requests } = pagedList(1200);
    expect(await listAllPages(fetchPage, 0)).toHaveLength(1200);
    expect(requests).toEqual([{}]);
  });

  it('when a continue token expires (410), starts over with one full list, as client-go does', async () => {
    const { fetchPage, requests } = pagedList(1200, { expireAt: '1000' });
    const items = await listAllPages(fetchPage, 500);
    expect(items).toEqual(Array.from({ length: 1200 }, (_, i) => i));
    expect(requests.at(-1)).toEqual({ restart: true });
  });

  it('a 410 on the first request is not retried', async () => {
    const { fetchPage } = pagedList(10, { expireAt: '' });
    const failing = (page: PageRequest) => fetchPage({ ...page, _continue: '' });
    await expect(listAllPages(failing, 500)).rejects.toBeInstanceOf(ApiException);
  });

  it('applies the per-item function to every page', async () => {
    const { fetchPage } = pagedList(7);
    expect(await listAllPages(fetchPage, 3, (n) => n * 10)).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });
});

describe('stripUnusedFields', () => {
  it('drops managedFields and the last-applied annotation, keeps every other annotation', () => {
    const pod = {
      metadata: {
        name: 'p',
        managedFields: [{ manager: 'kubectl' }],
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{…}',
          'kubernetes.io/config.mirror': 'abc',
        },
      },
      spec: { nodeName: 'n' },
    };
    expect(stripUnusedFields(pod)).toEqual({
      metadata: { name: 'p', annotations: { 'kubernetes.io/config.mirror': 'abc' } },
      spec: { nodeName: 'n' },
    });
  });
});
