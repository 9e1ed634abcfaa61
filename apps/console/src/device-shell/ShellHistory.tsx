import { useState } from 'react';
import { Button, Drawer, Input, Select, Space, Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import { IconPlayCircle, IconRefresh } from '@arco-design/web-react/icon';
import type { ShellSession } from '@mowerline/contract';
import { useFormatTime } from '../locale/format.ts';
import { useT } from '../locale/i18n.ts';
import { PlaybackPane } from './PlaybackPane.tsx';
import { useShellSessions } from './shell.api.ts';

const bytes = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);
const duration = (s: ShellSession) => {
  const ms = (s.closedAt ? Date.parse(s.closedAt) : Date.now()) - Date.parse(s.openedAt);
  const sec = Math.max(0, Math.round(ms / 1000));
  return sec < 60 ? `${sec}s` : `${Math.floor(sec / 60)}m ${sec % 60}s`;
};

/** Who opened which shell when, how it ended, and a player for each recording. */
export function ShellHistory() {
  const t = useT();
  const { dateTime: formatDateTime } = useFormatTime();
  const [sn, setSn] = useState('');
  const [status, setStatus] = useState<'open' | 'closed' | undefined>();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [playing, setPlaying] = useState<ShellSession | undefined>();
  const sessions = useShellSessions({ page, pageSize, sn: sn || undefined, status });

  const columns: TableColumnProps<ShellSession>[] = [
    { title: t('shell.col.sn'), dataIndex: 'sn' },
    { title: t('shell.col.staff'), dataIndex: 'staffName' },
    { title: t('shell.col.opened'), dataIndex: 'openedAt', render: (v: string) => formatDateTime(v) },
    { title: t('shell.col.closed'), dataIndex: 'closedAt', render: (v: string | null) => (v ? formatDateTime(v) : <Tag color="green">{t('shell.phase.open')}</Tag>) },
    { title: t('shell.col.duration'), render: (_: unknown, s) => duration(s) },
    { title: t('shell.col.bytes'), render: (_: unknown, s) => `${bytes(s.bytesIn)} / ${bytes(s.bytesOut)}` },
    {
      title: t('shell.col.reason'),
      dataIndex: 'closeReason',
      render: (v: string | null, s) => (v ? <span title={s.closeMessage}>{t(`shell.reason.${v}`)}</span> : '–'),
    },
    {
      title: t('shell.col.actions'),
      render: (_: unknown, s) => (
        <Button type="text" size="small" icon={<IconPlayCircle />} disabled={s.bytesOut === 0} onClick={() => setPlaying(s)} data-testid="shell-play">
          {t('shell.play')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          style={{ width: 240 }}
          placeholder={t('shell.filter.sn')}
          onSearch={(v) => {
            setSn(v.trim().toUpperCase());
            setPage(1);
          }}
          onClear={() => setSn('')}
        />
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t('shell.filter.status')}
          value={status}
          onChange={(v: 'open' | 'closed' | undefined) => {
            setStatus(v);
            setPage(1);
          }}
          options={[
            { label: t('shell.phase.open'), value: 'open' },
            { label: t('shell.phase.closed'), value: 'closed' },
          ]}
        />
        <Button icon={<IconRefresh />} onClick={() => void sessions.refetch()}>
          {t('shell.refresh')}
        </Button>
      </Space>
      <Table
        rowKey="id"
        columns={columns}
        data={sessions.data?.list ?? []}
        loading={sessions.isFetching}
        pagination={{
          current: page,
          pageSize,
          total: sessions.data?.total ?? 0,
          showTotal: true,
          sizeCanChange: true,
          onChange: (p, size) => {
            setPage(size === pageSize ? p : 1);
            setPageSize(size);
          },
        }}
      />
      <Drawer
        width={960}
        title={playing ? t('shell.play.title', { sn: playing.sn, staff: playing.staffName, at: formatDateTime(playing.openedAt) }) : ''}
        visible={!!playing}
        footer={null}
        onCancel={() => setPlaying(undefined)}
        unmountOnExit
      >
        {playing ? <PlaybackPane sessionId={playing.id} /> : null}
      </Drawer>
    </>
  );
}
