import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RoleRule } from '@mowerline/contract';
import { Permission } from './Permission.tsx';

// Rendered on the server, the component sees the session's initial state: nobody signed in.
// Role-by-role behaviour is `allowedFor` (permission.test.ts) and the role-switch browser test.
const render = (roles: readonly RoleRule[] | undefined) =>
  renderToStaticMarkup(createElement(Permission, { roles: roles as RoleRule[], children: createElement('b', null, 'secret') }));

describe('<Permission>', () => {
  it('shows its children to everyone with an empty list or the wildcard, and hides listed-role content without a role', () => {
    expect(render([])).toBe('<b>secret</b>');
    expect(render(['*'])).toBe('<b>secret</b>');
    expect(render(['admin'])).toBe('');
    expect(render(['admin', 'user'])).toBe('');
  });

  it('throws the exact message without a role list', () => {
    expect(() => render(undefined)).toThrow(`need roles! Like v-permission="['admin','user']"`);
  });
});
