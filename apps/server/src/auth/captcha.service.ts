import { randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { CaptchaResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { captchas } from './auth.sql.ts';

export const CAPTCHA_TTL_SECONDS = 300;
// No 0/O, 1/I/l: characters people misread would make a correct answer fail.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LENGTH = 4;

// The package's default export draws an SVG for a given text; its typings only describe `create`,
// which picks the text with Math.random. The text comes from crypto here instead.
const draw = svgCaptcha as unknown as (text: string, options: Parameters<typeof svgCaptcha.create>[0]) => string;

/** Makes an image captcha: the answer is stored (case-insensitive, single use) and the image returned. */
export async function createCaptcha(ctx: AppContext): Promise<CaptchaResult> {
  const text = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  const svg = draw(text, { size: LENGTH, noise: 2, width: 120, height: 40, fontSize: 44, background: '#f2f3f5' });
  const now = new Date();
  // Expired captchas are useless; dropping them here keeps the table as small as the traffic.
  await ctx.db.delete(captchas).where(lt(captchas.expiresAt, now));
  const [row] = await ctx.db
    .insert(captchas)
    .values({ answer: text.toLowerCase(), expiresAt: new Date(now.getTime() + CAPTCHA_TTL_SECONDS * 1000) })
    .returning({ id: captchas.id });
  return {
    captchaId: row!.id,
    image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    expiresIn: CAPTCHA_TTL_SECONDS,
  };
}

/** Uses up a captcha, right or wrong (one guess per image); true when it was alive and the answer matches. */
export async function solveCaptcha(ctx: AppContext, captchaId: string, answer: string): Promise<boolean> {
  const now = new Date();
  const [row] = await ctx.db
    .update(captchas)
    .set({ usedAt: now })
    .where(and(eq(captchas.id, captchaId), isNull(captchas.usedAt), gt(captchas.expiresAt, now)))
    .returning({ answer: captchas.answer });
  return !!row && row.answer === answer.trim().toLowerCase();
}
