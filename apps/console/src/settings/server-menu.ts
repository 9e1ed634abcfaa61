import { Notification } from '@arco-design/web-react';
import { menuApi } from '@mowerline/contract';
import { call } from '../api/endpoint-client.ts';
import { loadAllStrings, t } from '../locale/i18n.ts';
import { useSettings } from './settings.store.ts';

/** Spec §8: the three notifications of a menu load share one id, so each replaces the last. */
const NOTIFICATION_ID = 'menu-notice';

/** The menu tree for the caller's role, kept while menuFromServer is on. */
export async function loadServerMenu(): Promise<void> {
  // The guard may call this before any page (and so before the feature strings) has loaded.
  await loadAllStrings();
  Notification.info({ id: NOTIFICATION_ID, title: t('settings.menu.title'), content: t('settings.menu.loading'), closable: true });
  try {
    const menu = await call(menuApi.menu, {}, { silent: true });
    useSettings.getState().setServerMenu(menu);
    Notification.success({ id: NOTIFICATION_ID, title: t('settings.menu.title'), content: t('settings.menu.success'), closable: true });
  } catch (error) {
    Notification.error({ id: NOTIFICATION_ID, title: t('settings.menu.title'), content: t('settings.menu.error'), closable: true });
    throw error;
  }
}
