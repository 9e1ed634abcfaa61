import { Alert, Button, Input, Message, Modal, Space, Typography } from '@arco-design/web-react';
import { IconCopy } from '@arco-design/web-react/icon';
import type { SnSecret } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { PairingQr } from './PairingQr.tsx';

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

/** A read-only value with a copy button named after it (two "Copy" buttons would be ambiguous to a screen reader). */
function CopyField({ label, value, copyLabel, copied, testId }: { label: string; value: string; copyLabel: string; copied: string; testId: string }) {
  const t = useT();
  return (
    <div>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Input.Group compact style={{ display: 'flex' }}>
        <Input readOnly value={value} aria-label={label} data-testid={testId} style={{ fontFamily: 'monospace', flex: 1 }} />
        <Button icon={<IconCopy />} aria-label={copyLabel} onClick={() => copyText(value, copied)}>
          {t('productSn.secret.copy')}
        </Button>
      </Input.Group>
    </div>
  );
}

/**
 * A device secret and the label's pairing code, shown once: the platform keeps only their hashes,
 * so closing this dialog loses them. Closing needs an explicit click (no mask close) so a stray
 * click cannot throw them away.
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
            <Input readOnly value={secret.sn} aria-label={t('productSn.field.sn')} style={{ fontFamily: 'monospace' }} />
          </div>
          <CopyField
            label={t('productSn.secret.label')}
            value={secret.secret}
            copyLabel={t('productSn.secret.copyAria')}
            copied={t('productSn.secret.copied')}
            testId="device-secret"
          />
          <CopyField
            label={t('productSn.pairing.label')}
            value={secret.pairingCode}
            copyLabel={t('productSn.pairing.copyAria')}
            copied={t('productSn.pairing.copied')}
            testId="pairing-code"
          />
          <div>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {t('productSn.pairing.hint')}
            </Typography.Paragraph>
            <PairingQr sn={secret.sn} pairingCode={secret.pairingCode} />
          </div>
          {rotated && <Typography.Text type="secondary">{t('productSn.secret.rotatedHint')}</Typography.Text>}
        </Space>
      )}
    </Modal>
  );
}
