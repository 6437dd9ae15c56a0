/**
 * One spelling per path before the router sees it, so `/%61pi/users`, `http://host/api/users`,
 * `/api//users/`, `/api/./users` and `/api%2Fusers` all reach the route `/api/users` and get its
 * answer. Authorization never depends on this (it reads the matched route's declared access); this
 * only makes every spelling of one path answer alike instead of some of them 404.
 */

// RFC 3986 unreserved characters and '/': decoding these never changes what a path means here
// (no route takes a slash inside a parameter).
const DECODABLE = /%(2[dDeEfF]|3[0-9]|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g;

function decodeUnreserved(path: string): string {
  return path.replace(DECODABLE, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Collapse empty and '.' segments, resolve '..' (never above the root), drop a trailing slash. */
function normaliseSegments(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return '/' + out.join('/');
}

/** The canonical origin-form target (`/path?query`) for a raw request target. */
export function canonicalRequestTarget(raw: string): string {
  let target = raw;
  if (!target.startsWith('/')) {
    // Absolute form (`GET http://host/api/users HTTP/1.1`): keep only the path and query.
    try {
      const url = new URL(target);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return raw;
      target = url.pathname + url.search;
    } catch {
      return raw; // `*` or garbage: the router answers 404
    }
  }
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q);
  return normaliseSegments(decodeUnreserved(path)) + query;
}
