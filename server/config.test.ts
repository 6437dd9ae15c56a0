import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const trustProxy = (TRUST_PROXY: string | undefined) => loadConfig({ NODE_ENV: 'test', ...(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }) }).trustProxy;

describe('TRUST_PROXY names the proxies to trust (docs/decisions/035)', () => {
  it('unset, empty or false: trust no one', () => {
    for (const v of [undefined, '', 'false', '0', 'no', 'off', 'FALSE']) expect(trustProxy(v)).toBe(false);
  });

  it('named ranges, addresses and CIDR ranges, IPv4 and IPv6, comma-separated', () => {
    expect(trustProxy('loopback')).toEqual(['loopback']);
    expect(trustProxy('10.0.0.1,10.0.0.0/8')).toEqual(['10.0.0.1', '10.0.0.0/8']);
    expect(trustProxy('::1')).toEqual(['::1']);
    expect(trustProxy(' 192.168.1.10 , fd00::/8, Linklocal ,uniquelocal')).toEqual(['192.168.1.10', 'fd00::/8', 'linklocal', 'uniquelocal']);
    expect(trustProxy('2001:db8::1/128,203.0.113.0/24')).toEqual(['2001:db8::1/128', '203.0.113.0/24']);
  });

  it('every accepted value is one Fastify compiles', () => {
    for (const v of ['loopback', '10.0.0.1,10.0.0.0/8', '::1', 'linklocal,uniquelocal', 'fd00::/8,192.168.1.10', '::ffff:10.0.0.1']) {
      const tp = trustProxy(v);
      expect(() => Fastify({ trustProxy: tp })).not.toThrow();
    }
  });

  it('true (and its spellings) is refused, saying what to write instead', () => {
    for (const v of ['true', 'TRUE', '1', 'yes', 'on']) {
      expect(() => trustProxy(v)).toThrow(/TRUST_PROXY: .*TRUST_PROXY=loopback for a proxy on this machine/);
    }
  });

  it('a hop count is refused: Fastify 5 ignores it and trusts no one', () => {
    expect(() => trustProxy('2')).toThrow(/TRUST_PROXY: a hop count \("2"\) is not supported/);
  });

  it('a bad address or range is a start-up error naming TRUST_PROXY and the entry', () => {
    for (const [v, entry] of [
      ['10.0.0.300', '10.0.0.300'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['::1/129', '::1/129'],
      ['10.0.0.0/8x', '10.0.0.0/8x'],
      ['0.0.0.0/0', '0.0.0.0/0'],
      ['::/0', '::/0'],
      ['everything', 'everything'],
      ['*', '*'],
      ['10.0.0.1, proxy.example.edu', 'proxy.example.edu'],
      ['127.1', '127.1'],
      ['10.0.0.1/', '10.0.0.1/'],
    ]) {
      expect(() => trustProxy(v), v).toThrow(`TRUST_PROXY: "${entry}" is not an IP address`);
    }
  });
});
