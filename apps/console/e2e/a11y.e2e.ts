import { writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './harness.ts';
import { startSeededConsole, type SeededConsole } from './fleet.helpers.ts';
import { everyPage, openPage, openSignedIn } from './pages.helpers.ts';

/**
 * Violations that come from inside an Arco component and cannot be fixed from our code, each with
 * its upstream reason. Matched by rule id and by the CSS selector axe reports for the element.
 */
const allowed: Array<{ rule: string; target: RegExp; reason: string }> = [
  {
    rule: 'aria-required-parent',
    target: /#arco-tabs-\d+-tab-\d+/,
    reason: 'Arco Tabs gives each header role="tab" but draws no role="tablist" around them (Tabs/tab-header), and takes no prop for it',
  },
  {
    rule: 'aria-prohibited-attr',
    target: /\.arco-pagination-option/,
    reason: 'Arco Pagination puts aria-label on the page-size wrapper <div> without a role (Pagination/page-options); the Select inside is named',
  },
  {
    rule: 'label',
    target: /\.arco-table-th-item > \.arco-checkbox > input/,
    reason: "Arco Table's select-all checkbox in the header takes no props, so it cannot be named (Table/thead renders <Checkbox> bare); row checkboxes are named",
  },
  {
    rule: 'scrollable-region-focusable',
    target: /\.arco-table-content-inner/,
    reason: "Arco Table's horizontal scroll box is not focusable and takes no tabIndex prop; a table with no links or buttons cannot be scrolled by keyboard",
  },
  {
    rule: 'aria-required-children',
    target: /\.arco-list-content/,
    reason: 'Arco List draws its empty state inside role="list" (List/index), so an empty list has no listitem',
  },
];

/** Critical and serious violations on the page as it is now, minus the allowed ones. */
async function violations(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  if (process.env.A11Y_REPORT) writeFileSync(`${process.env.A11Y_REPORT}/${where.replace(/\W+/g, '-')}.json`, JSON.stringify(result.violations, null, 1));
  const found: string[] = [];
  for (const violation of result.violations) {
    if (violation.impact !== 'critical' && violation.impact !== 'serious') continue;
    for (const node of violation.nodes) {
      const target = node.target.map(String).join(' ');
      if (allowed.some((a) => a.rule === violation.id && a.target.test(target))) continue;
      found.push(`${where}: ${violation.id} at ${target} — ${node.failureSummary?.split('\n')[1]?.trim() ?? violation.help}`);
    }
  }
  return found;
}

/**
 * axe-core over every page of the route table with real data in it, in the light theme (zh-CN)
 * and the dark theme (en-US): a critical or serious violation fails, unless it is allowed above.
 */
describe('accessibility of every page in both themes (axe-core, WCAG 2.1 AA)', () => {
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
    { theme: 'light', locale: 'zh-CN' },
    { theme: 'dark', locale: 'en-US' },
  ] as const)('$theme theme ($locale)', { timeout: 480_000 }, async ({ theme, locale }) => {
    const { server } = seeded;
    const signIn = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const found: string[] = [];
    try {
      const login = await signIn.newPage();
      await login.addInitScript(
        ({ locale, theme }) => {
          localStorage.setItem('locale', locale);
          if (theme === 'dark') localStorage.setItem('mowerline-settings', JSON.stringify({ state: { theme: 'dark' }, version: 0 }));
        },
        { locale, theme },
      );
      await login.goto(`${server.url}/#/login`);
      await login.locator('input[name=username]').waitFor();
      found.push(...(await violations(login, `login.${theme}`)));
    } finally {
      await signIn.close();
    }
    const { page, errors, context } = await openSignedIn(browser, server, '/dashboard/workplace', { theme, locale });
    try {
      for (const { hash } of everyPage()) {
        await openPage(page, hash, { fresh: true });
        found.push(...(await violations(page, `${hash}.${theme}`)));
      }
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
