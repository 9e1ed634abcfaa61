import { useState } from 'react';
import { Button, Popconfirm, Select, Space, Table, Tag, Tooltip, type TableColumnProps } from '@arco-design/web-react';
import { IconUpload } from '@arco-design/web-react/icon';
import { artifactStatuses, permissions, type Artifact, type ArtifactKind, type ArtifactStatus } from '@mowerline/contract';
import { useProductModels } from '../devices/devices.api.ts';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { usePaging } from '../components/usePaging.ts';
import { useFormatTime } from '../locale/format.ts';
import { Permission } from '../permission/Permission.tsx';
import { usePermission } from '../permission/usePermission.ts';
import { useArtifacts, useUpdateArtifact } from './firmware.api.ts';
import { artifactStatusColor, formatBytes } from './labels.ts';
import { UploadModal } from './UploadModal.tsx';

/** The artifacts of one kind: filter, upload with progress, release and deprecate. */
export function ArtifactTab({ kind }: { kind: ArtifactKind }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const { dateTime } = useFormatTime();
  const { can } = usePermission();
  const models = useProductModels();
  const [modelId, setModelId] = useState<number>();
  const [status, setStatus] = useState<ArtifactStatus>();
  const { page, pageSize, setPage, pagination } = usePaging();
  const [uploading, setUploading] = useState(false);
  const list = useArtifacts(kind, { modelId, status, page, pageSize });
  const update = useUpdateArtifact(kind);

  const columns: TableColumnProps<Artifact>[] = [
    { title: t('ota.field.version'), dataIndex: 'version', width: 120, render: (v: string) => <b>{v}</b> },
    { title: t('ota.field.model'), dataIndex: 'modelCode', width: 120 },
    ...(kind === 'voice' ? [{ title: t('ota.field.language'), dataIndex: 'language', width: 100 }] : []),
    { title: t('ota.field.status'), dataIndex: 'status', width: 110, render: (s: ArtifactStatus) => <Tag color={artifactStatusColor[s]}>{t(`ota.status.${s}`)}</Tag> },
    {
      title: t('ota.field.changelog'),
      dataIndex: 'changelogEn',
      ellipsis: true,
      tooltip: true,
      render: (_, a) => (locale === 'en-US' ? a.changelogEn || a.changelogZh : a.changelogZh || a.changelogEn) || '-',
    },
    { title: t('ota.field.minFrom'), dataIndex: 'minFromVersion', width: 130, render: (v: string) => v || '-' },
    { title: t('ota.field.size'), dataIndex: 'size', width: 100, render: (v: number) => formatBytes(v) },
    {
      title: 'SHA-256',
      dataIndex: 'sha256',
      width: 150,
      render: (v: string) => (
        <Tooltip content={v}>
          <span className="ota-mono">{v.slice(0, 12)}…</span>
        </Tooltip>
      ),
    },
    { title: t('ota.field.createdAt'), dataIndex: 'createdAt', width: 170, render: (v: string, a) => `${dateTime(v)} · ${a.createdBy}` },
  ];
  if (can(permissions.firmwareWrite)) {
    columns.push({
      title: t('ota.field.actions'),
      dataIndex: 'actions',
      width: 130,
      fixed: 'right',
      render: (_, a) => (
        <Space>
          {a.status !== 'released' && (
            <Popconfirm title={t('ota.confirm.release', { version: a.version })} onOk={() => update.mutateAsync({ id: a.id, body: { status: 'released' } })}>
              <Button type="text" size="small">
                {t('ota.action.release')}
              </Button>
            </Popconfirm>
          )}
          {a.status === 'released' && (
            <Popconfirm title={t('ota.confirm.deprecate', { version: a.version })} onOk={() => update.mutateAsync({ id: a.id, body: { status: 'deprecated' } })}>
              <Button type="text" size="small" status="warning">
                {t('ota.action.deprecate')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    });
  }

  return (
    <div>
      <div className="ota-toolbar">
        <Space wrap>
          <Select
            allowClear
            style={{ width: 200 }}
            placeholder={t('ota.filter.model')}
            value={modelId}
            onChange={(v?: number) => {
              setModelId(v);
              setPage(1);
            }}
            options={(models.data ?? []).map((m) => ({ value: m.id, label: `${m.code} · ${m.name}` }))}
          />
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('ota.filter.status')}
            value={status}
            onChange={(v?: ArtifactStatus) => {
              setStatus(v);
              setPage(1);
            }}
            options={artifactStatuses.map((s) => ({ value: s, label: t(`ota.status.${s}`) }))}
          />
        </Space>
        <Permission roles={permissions.firmwareWrite}>
          <Button type="primary" icon={<IconUpload />} onClick={() => setUploading(true)} data-testid="ota-upload-open">
            {t(`ota.action.upload.${kind}`)}
          </Button>
        </Permission>
      </div>
      <Table
        rowKey="id"
        columns={columns}
        data={list.data?.list ?? []}
        loading={list.isLoading}
        border={false}
        scroll={{ x: 1300 }}
        noDataElement={<div style={{ padding: 24 }}>{t('ota.empty.artifacts')}</div>}
        pagination={pagination(list.data?.total ?? 0, { sizeCanChange: true })}
      />
      <UploadModal kind={kind} visible={uploading} onClose={() => setUploading(false)} />
    </div>
  );
}
