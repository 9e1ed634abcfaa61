import { Alert, Button, Input, Message, Modal, Space, Typography } from '@arco-design/web-react';
import { IconCopy } from '@arco-design/web-react/icon';
import type { SnSecret } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';

/** The Clipboard API needs a secure context; plain HTTP on a LAN address falls back to a hidden textarea. */
export async function copyText(text: string, done: string) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  Message.success(done);
}

/**
 * A device secret, shown once: the platform keeps only its hash, so closing this dialog loses it.
 * Closing needs an explicit click (no mask close) so a stray click cannot throw it away.
 */
export function SecretModal({ secret, rotated, onClose }: { secret: SnSecret | undefined; rotated?: boolean; onClose(): void }) {
  const t = useT();
  return (
    <Modal
      visible={!!secret}
      title={t(rotated ? 'productSn.secret.rotatedTitle' : 'productSn.secret.title', { sn: secret?.sn ?? '' })}
      maskClosable={false}
      escToExit={false}
      unmountOnExit
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('productSn.secret.saved')}
        </Button>
      }
    >
      {secret && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Alert type="warning" content={t('productSn.secret.warning')} />
          <div>
            <Typography.Text type="secondary">{t('productSn.field.sn')}</Typography.Text>
            <Input readOnly value={secret.sn} style={{ fontFamily: 'monospace' }} />
          </div>
          <div>
            <Typography.Text type="secondary">{t('productSn.secret.label')}</Typography.Text>
            <Input.Group compact style={{ display: 'flex' }}>
              <Input readOnly value={secret.secret} data-testid="device-secret" style={{ fontFamily: 'monospace', flex: 1 }} />
              <Button icon={<IconCopy />} onClick={() => copyText(secret.secret, t('productSn.secret.copied'))}>
                {t('productSn.secret.copy')}
              </Button>
            </Input.Group>
          </div>
          {rotated && <Typography.Text type="secondary">{t('productSn.secret.rotatedHint')}</Typography.Text>}
        </Space>
      )}
    </Modal>
  );
}
