// A large JSON answer written in slices. The Compliance overview of 10,000 students is 2 MB of JSON:
// checked against its schema and stringified in one go, it held the event loop for 70-80 ms, and the
// check-ins arriving meanwhile waited. Here each element of the answer's lists is checked (unknown
// keys dropped, as the route's serializer would) and stringified on its own, with a pause for
// waiting I/O every few milliseconds.
import { Readable } from 'node:stream';
import { z } from 'zod';
import { sliceYielder } from './event-loop-turns.ts';

const CHUNK_CHARS = 64 * 1024;

async function* listChunks(list: readonly unknown[], element: z.ZodType, pause: () => Promise<void> | void): AsyncGenerator<string> {
  let buffer = '[';
  for (const [i, item] of list.entries()) {
    buffer += (i === 0 ? '' : ',') + JSON.stringify(element.parse(item));
    if (buffer.length >= CHUNK_CHARS) {
      yield buffer;
      buffer = '';
    }
    await pause();
  }
  yield `${buffer}]`;
}

async function* chunks(value: unknown, schema: z.ZodType): AsyncGenerator<string> {
  const pause = sliceYielder();
  if (schema instanceof z.ZodArray) {
    yield* listChunks(value as unknown[], schema.element as z.ZodType, pause);
    return;
  }
  if (!(schema instanceof z.ZodObject)) {
    yield JSON.stringify(schema.parse(value));
    return;
  }
  const object = value as Record<string, unknown>;
  let separator = '{';
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (object[key] === undefined) continue;
    yield `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    if (field instanceof z.ZodArray) yield* listChunks(object[key] as unknown[], field.element as z.ZodType, pause);
    else yield JSON.stringify(field.parse(object[key]));
  }
  yield separator === '{' ? '{}' : '}';
}

/** `value` as a JSON body checked against `schema`, its lists (top level, or an object's fields) element by element. */
export function jsonInSlices(value: unknown, schema: z.ZodType): Readable {
  return Readable.from(chunks(value, schema), { objectMode: false });
}
