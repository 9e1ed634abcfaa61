import { describe, expect, it } from 'vitest';
import { deviceStates, shellCloseReasons } from '@mowerline/contract';
import en from './locale/en-US.ts';
import zh from './locale/zh-CN.ts';
import { shellSocketUrl, splitInput } from './shell-socket.ts';

describe('shell page strings and helpers', () => {
  it.each([
    ['en-US', en],
    ['zh-CN', zh],
  ])('%s names every close reason and device state', (_locale, strings) => {
    const s = strings as Record<string, string>;
    for (const reason of shellCloseReasons) expect(s[`shell.reason.${reason}`], reason).toBeTruthy();
    for (const state of deviceStates) expect(s[`shell.state.${state}`], state).toBeTruthy();
  });

  it('derives the socket URL from the chosen region or this page, never with the token in it', () => {
    expect(shellSocketUrl('', { protocol: 'https:', host: 'console.example.com' })).toBe('wss://console.example.com/api/admin/device/shell/ws');
    expect(shellSocketUrl('http://eu.example.com/', { protocol: 'https:', host: 'x' })).toBe('ws://eu.example.com/api/admin/device/shell/ws');
  });

  it('splits a large paste into messages the server accepts', () => {
    const parts = splitInput('a'.repeat(10_000));
    expect(parts.map((p) => p.length)).toEqual([4096, 4096, 1808]);
    const emoji = splitInput('a'.repeat(4095) + '🌱b');
    expect(emoji).toEqual(['a'.repeat(4095), '🌱b']);
  });
});
