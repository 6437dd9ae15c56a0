import { describe, expect, it } from 'vitest';
import { LOCK_CLASSES, NAMED_LOCK_CLASSES, SINGLE_LOCKS } from './advisory-locks.ts';

describe('the advisory lock registry', () => {
  it('gives every lock its own key in each key space', () => {
    const numbers = [...Object.values(SINGLE_LOCKS), ...Object.values(LOCK_CLASSES)];
    expect(new Set(numbers).size).toBe(numbers.length);
    const names = Object.values(NAMED_LOCK_CLASSES);
    expect(new Set(names).size).toBe(names.length);
  });
});
