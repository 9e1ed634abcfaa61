import { describe, expect, it } from 'vitest';
import { can } from '@mowerline/contract';
import { allowedFor, MISSING_ROLES_MESSAGE } from './permission.ts';

describe('permission', () => {
  it('allows everyone with an empty list, every role with the wildcard, else the listed roles', () => {
    expect(allowedFor('user', [])).toBe(true);
    expect(allowedFor(undefined, [])).toBe(true);
    expect(allowedFor('user', ['*'])).toBe(true);
    expect(allowedFor('admin', ['admin'])).toBe(true);
    expect(allowedFor('user', ['admin'])).toBe(false);
    expect(allowedFor(undefined, ['admin', 'user'])).toBe(false);
    expect(can('user', ['admin', 'user'])).toBe(true);
  });

  it('throws the exact message without a role list', () => {
    expect(MISSING_ROLES_MESSAGE).toBe(`need roles! Like v-permission="['admin','user']"`);
    expect(() => allowedFor('admin', undefined)).toThrow(new Error(`need roles! Like v-permission="['admin','user']"`));
  });
});
