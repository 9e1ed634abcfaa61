import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './harness.ts';
import { OPERATOR, startSeededConsole, type SeededConsole } from './fleet.helpers.ts';
import { everyPage, openPage, openSignedIn } from './pages.helpers.ts';

const WIDTHS = [1440, 1280] as const;

/**
 * Table text on screen that does not fit: a header, or a cell, whose content is wider than the
 * box it is drawn in (scrollWidth > clientWidth), or a cell that stays under a fixed column even
 * with the table scrolled all the way. A cell cut on purpose is allowed only when it says so
 * (Arco's ellipsis column) and carries its full text in a title; headers never.
 */
function clippedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const shown = (el: Element) => el.getClientRects().length > 0;
    const wider = (el: Element) => el.scrollWidth > el.clientWidth + 1;
    const text = (el: Element) => (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    for (const table of document.querySelectorAll('.layout-page .arco-table')) {
      if (!shown(table)) continue;
      const name = table.closest('[data-testid]')?.getAttribute('data-testid') ?? 'table';
      for (const th of table.querySelectorAll('thead th')) {
        const item = th.querySelector('.arco-table-th-item');
        const title = th.querySelector('.arco-table-th-item-title') ?? item;
        if (!item || !title || !text(title)) continue;
        if (wider(item) || wider(title)) found.push(`${name}: header "${text(title)}" is cut (${title.scrollWidth} > ${title.clientWidth})`);
      }
      // The box that scrolls sideways (Arco: content-inner, or the body under a sticky header).
      const scroller = [...table.querySelectorAll<HTMLElement>('.arco-table-content-inner, .arco-table-body')].find((el) => el.scrollWidth > el.clientWidth) ?? null;
      const scrollBack = scroller?.scrollLeft ?? 0;
      if (scroller) scroller.scrollLeft = scroller.scrollWidth;
      for (const row of table.querySelectorAll('tbody tr.arco-table-tr')) {
        const fixedRight = row.querySelector('td.arco-table-col-fixed-right');
        const edge = fixedRight ? fixedRight.getBoundingClientRect().left : Infinity;
        for (const td of row.querySelectorAll('td')) {
          const cell = td.querySelector('.arco-table-cell');
          if (!cell || !text(cell)) continue;
          const ellipsis = cell.classList.contains('arco-table-cell-text-ellipsis') && (cell.hasAttribute('title') || !!cell.querySelector('[title]'));
          if (wider(cell) && !ellipsis) found.push(`${name}: cell "${text(cell)}" is cut (${cell.scrollWidth} > ${cell.clientWidth})`);
          if (!td.classList.contains('arco-table-col-fixed-right') && td.getBoundingClientRect().right > edge + 1) {
            found.push(`${name}: cell "${text(cell)}" stays under the fixed column`);
          }
        }
      }
      if (scroller) scroller.scrollLeft = scrollBack;
    }
    return found;
  });
}

/**
 * Every table page of the route table with real data in it, at 1440 and 1280 px, in zh-CN and
 * en-US, as an administrator (actions columns) and as an operator (none): no header or cell text
 * is cut off.
 */
describe('table text fits its columns at 1440 and 1280 px in both languages', () => {
  let seeded: SeededConsole;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    seeded = await startSeededConsole();
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.cleanup();
    await seeded?.close();
  });

  it.each([
    { locale: 'zh-CN', role: 'admin' },
    { locale: 'en-US', role: 'admin' },
    { locale: 'en-US', role: 'user' },
    { locale: 'zh-CN', role: 'user' },
  ] as const)('$locale as $role', { timeout: 480_000 }, async ({ locale, role }) => {
    const { server } = seeded;
    const account = role === 'user' ? { username: OPERATOR.username, password: OPERATOR.password } : {};
    const { page, errors, context } = await openSignedIn(browser, server, '/dashboard/workplace', { locale, ...account });
    const found: string[] = [];
    try {
      for (const { hash } of everyPage(role)) {
        await openPage(page, hash);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          // Arco re-measures fixed columns on resize: wait for the layout to be drawn at this width.
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
          found.push(...(await clippedText(page)).map((line) => `${hash} at ${width}px (${locale}): ${line}`));
        }
        await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      }
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
