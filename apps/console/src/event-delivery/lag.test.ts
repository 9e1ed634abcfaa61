import { describe, expect, it } from 'vitest';
import { formatLag } from './lag.ts';

describe('subscriber lag as people read it', () => {
  it('is nothing when no delivery waits', () => {
    expect(formatLag(0, 'en-US')).toBeNull();
    expect(formatLag(0.4, 'zh-CN')).toBeNull();
  });

  it('names the two largest units in English', () => {
    expect(formatLag(45, 'en-US')).toBe('45 sec');
    expect(formatLag(200, 'en-US')).toBe('3 min 20 sec');
    expect(formatLag(7_500, 'en-US')).toBe('2 hr 5 min');
    expect(formatLag(3 * 86_400 + 4 * 3_600 + 59, 'en-US')).toBe('3 days 4 hr');
  });

  it('stops at a zero unit rather than skipping to a smaller one', () => {
    expect(formatLag(3_600 + 5, 'en-US')).toBe('1 hr');
    expect(formatLag(120, 'en-US')).toBe('2 min');
  });

  it('reads in Chinese without spaces', () => {
    expect(formatLag(200, 'zh-CN')).toBe('3分钟20秒');
    expect(formatLag(86_400 + 3_600, 'zh-CN')).toBe('1天1小时');
  });
});
