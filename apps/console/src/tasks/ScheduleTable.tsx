import { Button, Message, Popconfirm, Space, Table, Tag, Tooltip, Typography, type TableColumnProps } from '@arco-design/web-react';
import { IconEdit, IconSend } from '@arco-design/web-react/icon';
import { permissions, type Schedule } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useFormatTime } from '../locale/format.ts';
import { usePermission } from '../permission/usePermission.ts';
import { Permission } from '../permission/Permission.tsx';
import { syncColor } from './labels.ts';
import { useDisableSchedule, useEnableSchedule, useResendSchedule } from './tasks.api.ts';

type Page = { list: Schedule[]; total: number };

/** Mon 08:00–10:00, … grouped per weekday. */
export function SlotsText({ slots }: { slots: Schedule['slots'] }) {
  const t = useT();
  const byDay = new Map<number, string[]>();
  for (const s of [...slots].sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start))) byDay.set(s.weekday, [...(byDay.get(s.weekday) ?? []), `${s.start}–${s.end}`]);
  return (
    <Space size={4} wrap className="task-slots">
      {[...byDay].map(([day, ranges]) => (
        <Tag key={day} size="small" bordered className="task-slot-tag">
          {t(`task.weekday.${day}`)} {ranges.join(', ')}
        </Tag>
      ))}
    </Space>
  );
}

/** The sync state, when it was sent and applied on hover, and a re-send for whoever may edit schedules. */
function SyncCell({ schedule }: { schedule: Schedule }) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const resend = useResendSchedule();
  const tip = [
    t('taskSchedule.syncTip.revision', { revision: schedule.configRevision }),
    schedule.sentAt ? t('taskSchedule.syncTip.sent', { at: dateTime(schedule.sentAt) }) : '',
    schedule.appliedAt ? t('taskSchedule.syncTip.applied', { at: dateTime(schedule.appliedAt) }) : '',
    schedule.syncError ? t('taskSchedule.syncTip.error', { error: schedule.syncError }) : '',
  ].filter(Boolean);
  return (
    <Space size={4}>
      <Tooltip content={tip.map((line) => <div key={line}>{line}</div>)}>
        <Tag color={syncColor[schedule.syncState]} data-sync={schedule.syncState} tabIndex={0}>
          {t(`task.sync.${schedule.syncState}`)}
        </Tag>
      </Tooltip>
      {schedule.syncState !== 'applied' && (
        <Permission roles={permissions.taskSchedule}>
          <Tooltip content={t('taskSchedule.do.resend')}>
            <Button
              size="mini"
              type="text"
              icon={<IconSend />}
              loading={resend.isPending}
              aria-label={t('taskSchedule.do.resendOf', { name: schedule.name, sn: schedule.sn })}
              onClick={() => resend.mutate(schedule.id, { onSuccess: () => Message.success(t('taskSchedule.done.resend', { sn: schedule.sn })) })}
            />
          </Tooltip>
        </Permission>
      )}
    </Space>
  );
}

/** Enable or disable, after a confirmation. */
function EnableToggle({ schedule }: { schedule: Schedule }) {
  const t = useT();
  const enable = useEnableSchedule();
  const disable = useDisableSchedule();
  const mutation = schedule.enabled ? disable : enable;
  const params = { name: schedule.name, sn: schedule.sn };
  return (
    <Popconfirm
      title={t(schedule.enabled ? 'taskSchedule.confirm.disable' : 'taskSchedule.confirm.enable', params)}
      onOk={() =>
        mutation.mutateAsync(schedule.id).then(
          () => void Message.success(t(schedule.enabled ? 'taskSchedule.done.disable' : 'taskSchedule.done.enable', params)),
          () => {},
        )
      }
    >
      <Button size="mini" type="text" status={schedule.enabled ? 'warning' : 'success'} loading={mutation.isPending} aria-label={t(schedule.enabled ? 'taskSchedule.do.disableOf' : 'taskSchedule.do.enableOf', params)}>
        {t(schedule.enabled ? 'taskSchedule.do.disable' : 'taskSchedule.do.enable')}
      </Button>
    </Popconfirm>
  );
}

interface Props {
  data: Page | undefined;
  loading: boolean;
  error: boolean;
  page: number;
  pageSize: number;
  onPage(page: number, pageSize: number): void;
  onEdit(schedule: Schedule): void;
}

/** Schedules: mower, owner, slots, zones, cutting, enabled, sync state; edit, enable/disable and re-send for those who may. */
export function ScheduleTable({ data, loading, error, page, pageSize, onPage, onEdit }: Props) {
  const t = useT();
  const { dateTime } = useFormatTime();
  const { can } = usePermission();
  const mayEdit = can(permissions.taskSchedule);
  const columns: TableColumnProps<Schedule>[] = [
    { title: t('task.field.sn'), dataIndex: 'sn', width: 160, fixed: 'left', render: (sn: string) => <span className="task-mono">{sn}</span> },
    { title: t('taskSchedule.field.name'), dataIndex: 'name', width: 150, ellipsis: true, render: (name: string, row) => <span data-schedule-id={row.id}>{name}</span> },
    { title: t('task.field.owner'), dataIndex: 'ownerEmail', width: 200, ellipsis: true, render: (e: string) => e || '-' },
    { title: t('task.field.model'), dataIndex: 'modelCode', width: 90 },
    { title: t('taskSchedule.field.slots'), dataIndex: 'slots', width: 280, render: (slots: Schedule['slots']) => <SlotsText slots={slots} /> },
    { title: t('taskSchedule.field.zones'), dataIndex: 'zones', width: 140, render: (zones: string[]) => (zones.length ? zones.join(', ') : <Typography.Text type="secondary">{t('task.wholeGarden')}</Typography.Text>) },
    {
      title: t('taskSchedule.field.cutting'),
      dataIndex: 'cutting',
      width: 170,
      render: (c: Schedule['cutting']) => `${t('taskSchedule.cutting', { height: c.heightMm, pattern: t(`task.pattern.${c.pattern}`) })}${c.edgeCut ? ` · ${t('taskSchedule.edgeCut')}` : ''}`,
    },
    {
      title: t('taskSchedule.field.enabled'),
      dataIndex: 'enabled',
      width: 80,
      render: (on: boolean) => (
        <Tag color={on ? 'green' : 'gray'} data-enabled={on}>
          {t(on ? 'taskSchedule.state.enabled' : 'taskSchedule.state.disabled')}
        </Tag>
      ),
    },
    { title: t('taskSchedule.field.sync'), dataIndex: 'syncState', width: 130, render: (_, row) => <SyncCell schedule={row} /> },
    { title: t('taskSchedule.field.revision'), dataIndex: 'revision', width: 70, align: 'right' },
    { title: t('task.field.updatedAt'), dataIndex: 'updatedAt', width: 170, render: (at: string, row) => <Tooltip content={`${t('taskSchedule.field.updatedBy')}: ${row.updatedBy.name}`}>{dateTime(at)}</Tooltip> },
    ...(mayEdit
      ? [
          {
            title: t('task.field.actions'),
            dataIndex: 'actions',
            width: 170,
            fixed: 'right' as const,
            render: (_: unknown, row: Schedule) => (
              <Space size={0}>
                <Button size="mini" type="text" icon={<IconEdit />} onClick={() => onEdit(row)} aria-label={t('taskSchedule.do.editOf', { name: row.name, sn: row.sn })}>
                  {t('taskSchedule.do.edit')}
                </Button>
                <EnableToggle schedule={row} />
              </Space>
            ),
          },
        ]
      : []),
  ];
  const total = data?.total ?? 0;
  return (
    <Table
      rowKey="id"
      columns={columns}
      data={data?.list ?? []}
      loading={loading}
      border={false}
      scroll={{ x: 1820 }}
      noDataElement={
        <div className="devices-empty" data-testid={error ? 'task-schedule-error' : 'task-schedule-empty'}>
          {t(error ? 'task.loadFailed' : 'taskSchedule.empty')}
        </div>
      }
      pagination={{ current: page, pageSize, total, sizeCanChange: true, sizeOptions: [10, 20, 50, 100], showTotal: () => t('taskSchedule.total', { total: total.toLocaleString() }) }}
      onChange={(pagination) => onPage(pagination.current ?? 1, pagination.pageSize ?? pageSize)}
    />
  );
}
