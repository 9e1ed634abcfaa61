import { Button, Message, Popconfirm, Space } from '@arco-design/web-react';
import type { SnRecord, SnSecret } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useRotateSecret, useUpdateSn } from './product-sn.api.ts';

/** Rotate the secret (shown once) and enable/disable, each after a confirmation. */
export function SnRowActions({ row, onSecret }: { row: SnRecord; onSecret(secret: SnSecret): void }) {
  const t = useT();
  const rotate = useRotateSecret();
  const update = useUpdateSn();
  const toggle = () =>
    update.mutate(
      { sn: row.sn, body: { enabled: !row.enabled } },
      { onSuccess: (after) => Message.success(t(after.enabled ? 'productSn.done.enabled' : 'productSn.done.disabled', { sn: row.sn })) },
    );
  return (
    <Space size={0}>
      <Popconfirm
        title={t('productSn.confirm.rotate', { sn: row.sn })}
        content={t('productSn.confirm.rotateDetail')}
        okButtonProps={{ status: 'warning' }}
        onOk={() => rotate.mutate(row.sn, { onSuccess: onSecret })}
      >
        <Button type="text" size="small" loading={rotate.isPending}>
          {t('productSn.action.rotate')}
        </Button>
      </Popconfirm>
      <Popconfirm
        title={t(row.enabled ? 'productSn.confirm.disable' : 'productSn.confirm.enable', { sn: row.sn })}
        content={row.enabled ? t('productSn.confirm.disableDetail') : undefined}
        okButtonProps={{ status: row.enabled ? 'danger' : 'default' }}
        onOk={toggle}
      >
        <Button type="text" size="small" status={row.enabled ? 'danger' : 'success'} loading={update.isPending}>
          {t(row.enabled ? 'productSn.action.disable' : 'productSn.action.enable')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
