import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { feedbackAboutFault, feedbackAboutSomethingElse, followUp } from '../src/feedback.ts';
import { createRng } from '../src/rng.ts';
import { appScreenshotPng } from '../src/screenshot.ts';

describe('simulated feedback', () => {
  it('draws a screenshot that is a real PNG of the phone size', async () => {
    const png = appScreenshotPng(createRng(1));
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 270, height: 480, channels: 3 });
    // The lawn is green and the stopped mower red: the image is not one flat colour.
    const stats = await sharp(png).stats();
    expect(stats.channels[1]!.max - stats.channels[1]!.min).toBeGreaterThan(50);
  });

  it('writes about the fault the mower really raised, in the owner language', () => {
    const run = { sn: 'ML-TEST-0001', faultCode: 'BLADE_BLOCKED', startedAt: '2026-11-23T10:00:00Z' };
    const en = feedbackAboutFault(createRng(2), 'en-US', run);
    expect(en).toMatchObject({ category: 'device', sn: 'ML-TEST-0001' });
    expect(en.title).toContain('BLADE_BLOCKED');
    expect(en.description).toContain('ML-TEST-0001');
    const zh = feedbackAboutFault(createRng(2), 'zh-CN', run);
    expect(zh.title).toMatch(/割草机/);
    const other = feedbackAboutSomethingElse(createRng(3), 'en-US');
    expect(other.category).not.toBe('device');
    expect(other.sn).toBeUndefined();
  });

  it('answers when support waits for the customer and rates a resolved ticket once', () => {
    const rng = createRng(4);
    expect(followUp(rng, 'en-US', { status: 'pending_customer', rating: null, canRate: false }).kind).toBe('reply');
    const rate = followUp(rng, 'en-US', { status: 'resolved', rating: null, canRate: true });
    expect(rate.kind).toBe('rate');
    if (rate.kind === 'rate') expect(rate.score).toBeGreaterThanOrEqual(1);
    expect(followUp(rng, 'en-US', { status: 'resolved', rating: { score: 5, comment: '', at: '2026-11-23T10:00:00Z' }, canRate: true }).kind).toBe('none');
    expect(followUp(rng, 'en-US', { status: 'open', rating: null, canRate: false }).kind).toBe('none');
  });
});
