import { Button, Descriptions, Popconfirm, Tag } from '@arco-design/web-react';
import { permissions, type DeviceDetail } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { Permission } from '../permission/Permission.tsx';
import { useClearDeviceFlag } from './devices.api.ts';

/**
 * What the per-device ingest limits did: messages dropped over the budget, and the flag a device
 * gets for staying far above it (disconnected; it may reconnect, still limited). Admins clear it.
 */
export function DeviceIngestLimits({ device }: { device: DeviceDetail }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const clear = useClearDeviceFlag();
  const { droppedTelemetry, droppedEvents, flaggedAt } = device.ingest;
  return (
    <Descriptions
      column={2}
      size="small"
      labelStyle={{ width: 110 }}
      data={[
        { label: t('devices.field.droppedTelemetry'), value: droppedTelemetry.toLocaleString() },
        { label: t('devices.field.droppedEvents'), value: droppedEvents.toLocaleString() },
        {
          label: t('devices.field.flag'),
          span: 2,
          value: flaggedAt ? (
            <span data-testid="device-flag">
              <Tag color="red">{t('devices.flagged', { at: dateTime(flaggedAt) })}</Tag>
              <Permission roles={permissions.productSnWrite}>
                <Popconfirm title={t('devices.clearFlag.confirm')} onOk={() => clear.mutateAsync(device.sn)}>
                  <Button size="mini" type="text" loading={clear.isPending}>
                    {t('devices.clearFlag')}
                  </Button>
                </Popconfirm>
              </Permission>
            </span>
          ) : (
            t('devices.notFlagged')
          ),
        },
      ]}
    />
  );
}
