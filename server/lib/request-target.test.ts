import { describe, expect, it } from 'vitest';
import { canonicalRequestTarget } from './request-target.ts';

describe('canonicalRequestTarget', () => {
  it.each([
    ['/api/users', '/api/users'],
    ['/%61pi/users', '/api/users'],
    ['/%41PI/%75sers', '/API/users'],
    ['/api%2Fusers', '/api/users'],
    ['/api%2fusers?x=1', '/api/users?x=1'],
    ['http://localhost:3000/api/users', '/api/users'],
    ['https://evil.example/api/users?page=2', '/api/users?page=2'],
    ['//api///users//', '/api/users'],
    ['/api/./users', '/api/users'],
    ['/api/x/../users', '/api/users'],
    ['/api/%2e%2e/api/users', '/api/users'],
    ['/../../api/users', '/api/users'],
    ['/', '/'],
    ['/api/users?next=/a//b', '/api/users?next=/a//b'],
  ])('%s → %s', (raw, canonical) => {
    expect(canonicalRequestTarget(raw)).toBe(canonical);
  });

  it('keeps reserved escapes such as %3F and %25 encoded', () => {
    expect(canonicalRequestTarget('/api/users/1%3Fa')).toBe('/api/users/1%3Fa');
    expect(canonicalRequestTarget('/%2561pi/users')).toBe('/%2561pi/users');
  });

  it('leaves targets it cannot read to the router', () => {
    expect(canonicalRequestTarget('*')).toBe('*');
    expect(canonicalRequestTarget('mailto:x@y')).toBe('mailto:x@y');
  });
});
