import { Modal } from '@arco-design/web-react';
import { t } from '../locale/i18n.ts';
import { VERSION_KEY } from './version-key.ts';

/** Spec §5: OK stores the new version and reloads; cancel continues with the loaded one. */
export function askToReload(version: string, done: (reload: boolean) => void): void {
  Modal.confirm({
    title: t('version.title'),
    content: t('version.content'),
    okText: t('version.reload'),
    cancelText: t('version.later'),
    onOk() {
      localStorage.setItem(VERSION_KEY, version);
      done(true);
      window.location.reload();
    },
    onCancel: () => done(false),
  });
}
