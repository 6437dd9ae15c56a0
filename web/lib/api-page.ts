import { TOTAL_COUNT_HEADER } from '../../common/validation.ts';
import { apiRequest, type Contract } from './api.ts';

/**
 * One page of a server-paged list: the items parsed with the contract, the total from
 * X-Total-Count. Apart from lib/api.ts because common/validation.ts brings zod, which the scan
 * page's bundle must not carry.
 */
export async function apiParsePage<T>(contract: Contract<T[]>, url: string): Promise<{ items: T[]; total: number }> {
  const res = await apiRequest('GET', url);
  const items = contract.parse(await res.json());
  return { items, total: Number(res.headers.get(TOTAL_COUNT_HEADER) ?? items.length) };
}
