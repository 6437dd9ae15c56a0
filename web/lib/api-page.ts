import { TOTAL_COUNT_HEADER } from '../../common/validation.ts';
import { apiRequest, type Contract } from './api.ts';

/** The most rows a printed list fetches: 20 requests of PRINT_PAGE_SIZE; past it the paper says it stops there. */
export const PRINT_MAX_ROWS = 2_000;
/** Every paged list accepts 100 (the largest size its pager offers), so printing asks for that. */
const PRINT_PAGE_SIZE = 100;

/** Every row of a list's current search, filters and order, up to `PRINT_MAX_ROWS`, and how many there are in all. */
export type EveryRow<T> = () => Promise<{ items: T[]; total: number }>;

type ApiPage<T> = {
  items: T[];
  total: number;
  /** The same list (same search, filters and order), every page of it: what a printed list shows. */
  everyRow: EveryRow<T>;
};

/**
 * One page of a server-paged list: the items parsed with the contract, the total from
 * X-Total-Count. Apart from lib/api.ts because common/validation.ts brings zod, which the scan
 * page's bundle must not carry.
 */
export async function apiParsePage<T>(contract: Contract<T[]>, url: string): Promise<ApiPage<T>> {
  const res = await apiRequest('GET', url);
  const items = contract.parse(await res.json());
  return { items, total: Number(res.headers.get(TOTAL_COUNT_HEADER) ?? items.length), everyRow: () => apiParseEveryPage(contract, url) };
}

/**
 * The list at `url` page by page (its page and pageSize replaced), one request at a time, until its
 * total or `PRINT_MAX_ROWS` rows: the paged API and its limits, never an unbounded read.
 */
async function apiParseEveryPage<T>(contract: Contract<T[]>, url: string): Promise<{ items: T[]; total: number }> {
  const [path, search = ''] = url.split('?');
  const items: T[] = [];
  let total = Number.POSITIVE_INFINITY;
  for (let page = 1; items.length < Math.min(total, PRINT_MAX_ROWS); page++) {
    const query = new URLSearchParams(search);
    query.set('page', String(page));
    query.set('pageSize', String(PRINT_PAGE_SIZE));
    const res = await apiRequest('GET', `${path}?${query.toString()}`);
    const rows = contract.parse(await res.json());
    total = Number(res.headers.get(TOTAL_COUNT_HEADER) ?? rows.length);
    items.push(...rows);
    if (rows.length < PRINT_PAGE_SIZE) break;
  }
  return { items: items.slice(0, PRINT_MAX_ROWS), total: Math.max(total, items.length) };
}
