import { describe, expect, it } from 'vitest';
import { emailMatchKey } from './email-match.ts';

describe('the form e-mail addresses are compared in', () => {
  it('folds ASCII capitals only', () => {
    expect(emailMatchKey('Sam.Rivera@Lakeside.EDU')).toBe('sam.rivera@lakeside.edu');
    expect(emailMatchKey('admin@kschool.edu')).toBe('admin@kschool.edu');
  });

  it('is nothing for an address Unicode would turn into another one', () => {
    expect('admin@\u212Aschool.edu'.toLowerCase()).toBe('admin@kschool.edu'); // what matched before
    for (const e of ['admin@\u212Aschool.edu', 'admin@\u017Fchool.edu', '\uFF41dmin@kschool.edu', 'adm\u0130n@kschool.edu', 'cafe\u0301@school.edu']) {
      expect(emailMatchKey(e), e).toBeNull();
    }
  });
});
