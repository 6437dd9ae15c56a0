import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonInSlices } from './json-in-slices.ts';

const row = z.object({ id: z.number(), name: z.string() });
const answer = z.object({ asOf: z.string(), counts: z.object({ n: z.number() }), rows: z.array(row), empty: z.array(row) });

describe('jsonInSlices', () => {
  it('writes what JSON.stringify of the parsed value writes, unknown keys dropped, in several chunks for a long list', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `Student ${i}`, secret: 'not in the schema' }));
    const value = { asOf: '2026-11-27', counts: { n: rows.length }, rows, empty: [], internal: 1 };
    const stream = jsonInSlices(value, answer);
    let chunks = 0;
    stream.on('data', () => chunks++);
    const body = await text(stream);
    expect(body).toBe(JSON.stringify(answer.parse(value)));
    expect(body).not.toContain('secret');
    expect(chunks).toBeGreaterThan(5);
  });

  it('writes a list at the top level', async () => {
    expect(await text(jsonInSlices([{ id: 1, name: 'A', x: 2 }], z.array(row)))).toBe('[{"id":1,"name":"A"}]');
    expect(await text(jsonInSlices([], z.array(row)))).toBe('[]');
  });

  it('refuses a value that does not fit its schema', async () => {
    await expect(text(jsonInSlices([{ id: 'one', name: 'A' }], z.array(row)))).rejects.toThrow();
  });
});
