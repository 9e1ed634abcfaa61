import { Message } from '@arco-design/web-react';
import { loadAllStrings, t } from '../locale/i18n.ts';
import { pageRoutes, type PageRoute } from './route-table.ts';

/**
 * Tells a signed-in person why the console did not open the page they asked for (a deep link
 * their role may not open): the spec sends them to the first page they may open, and this says
 * so. One toast at a time, however many refused links were followed.
 */
export async function tellAccessRefused(refused: PageRoute, destination: string): Promise<void> {
  // A deep link is the first navigation: page names come with the strings of every feature.
  await loadAllStrings();
  const path = destination.split('?')[0];
  const target = pageRoutes().find((page) => page.fullPath === path);
  Message.warning({
    id: 'access-refused',
    duration: 6000,
    content: t('router.accessRefused', {
      page: t(refused.locales.at(-1)!),
      target: target ? t(target.locales.at(-1)!) : path!,
    }),
  });
}
