import { useState } from 'react';
import { Button, Card, Input, Select, Space, Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { contentStates, contentTypes, permissions, type ContentItem, type ContentState, type ContentType } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { formatDateTime } from '../locale/format.ts';
import { Permission } from '../permission/Permission.tsx';
import { usePermission } from '../permission/usePermission.ts';
import { useContentList, useSetContentState } from './content.api.ts';
import { ContentEditor } from './ContentEditor.tsx';
import './content.css';

const stateColor: Record<ContentState, string> = { draft: 'gray', published: 'green', archived: 'orangered' };
/** What each state may become from the list: publish a draft, archive or withdraw what is out. */
const nextStates: Record<ContentState, ContentState[]> = { draft: ['published', 'archived'], published: ['draft', 'archived'], archived: ['published'] };

/** Operation → content: the articles, image posts and videos of the app; write, publish, archive. */
export default function ContentPage() {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const canWrite = usePermission().can(permissions.contentWrite);
  const [filters, setFilters] = useState<{ type?: ContentType; state?: ContentState; keyword?: string }>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [editing, setEditing] = useState<{ item?: ContentItem } | null>(null);
  const list = useContentList({ ...filters, page, pageSize });
  const setState = useSetContentState();

  const columns: TableColumnProps<ContentItem>[] = [
    {
      title: t('contentPage.column.title'),
      dataIndex: 'title',
      render: (_, item) => (
        <Space>
          {item.coverUrl ? <img className="content-cover" src={item.coverUrl} alt="" /> : <span className="content-cover" />}
          <span data-testid="content-row-title">{item.title[locale]}</span>
        </Space>
      ),
    },
    { title: t('contentPage.column.type'), dataIndex: 'type', width: 100, render: (type: ContentType) => <Tag>{t(`contentPage.type.${type}`)}</Tag> },
    {
      title: t('contentPage.column.state'),
      dataIndex: 'state',
      width: 110,
      render: (state: ContentState) => (
        <Tag color={stateColor[state]} data-state={state}>
          {t(`contentPage.state.${state}`)}
        </Tag>
      ),
    },
    { title: t('contentPage.column.models'), dataIndex: 'models', width: 140, render: (models: string[]) => (models.length ? models.join(', ') : t('contentPage.allModels')) },
    { title: t('contentPage.column.opens'), dataIndex: 'opens', width: 90, align: 'right' },
    { title: t('contentPage.column.updated'), dataIndex: 'updatedAt', width: 170, render: (at: string) => formatDateTime(at, locale) },
  ];
  if (canWrite)
    columns.push({
      title: t('contentPage.column.actions'),
      dataIndex: 'actions',
      width: 220,
      render: (_, item) => (
        <Space size={4}>
          <Button size="mini" type="text" onClick={() => setEditing({ item })}>
            {t('contentPage.do.edit')}
          </Button>
          {nextStates[item.state].map((state) => (
            <Button key={state} size="mini" type="text" data-testid={`content-to-${state}`} onClick={() => void setState.mutateAsync({ id: item.id, state }).catch(() => {})}>
              {t(`contentPage.do.${state}`)}
            </Button>
          ))}
        </Space>
      ),
    });

  const filter = (next: typeof filters) => {
    setFilters(next);
    setPage(1);
  };
  return (
    <Card
      title={t('menu.operation.content')}
      extra={
        <Permission roles={permissions.contentWrite}>
          <Button type="primary" icon={<IconPlus />} onClick={() => setEditing({})} data-testid="content-new">
            {t('contentPage.new')}
          </Button>
        </Permission>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          style={{ width: 140 }}
          placeholder={t('contentPage.column.type')}
          value={filters.type}
          onChange={(type?: ContentType) => filter({ ...filters, type })}
          options={contentTypes.map((type) => ({ label: t(`contentPage.type.${type}`), value: type }))}
        />
        <Select
          allowClear
          style={{ width: 140 }}
          placeholder={t('contentPage.column.state')}
          value={filters.state}
          onChange={(state?: ContentState) => filter({ ...filters, state })}
          options={contentStates.map((state) => ({ label: t(`contentPage.state.${state}`), value: state }))}
        />
        <Input.Search allowClear style={{ width: 240 }} placeholder={t('contentPage.search')} onSearch={(keyword) => filter({ ...filters, keyword: keyword || undefined })} />
      </Space>
      <Table
        rowKey="id"
        columns={columns}
        data={list.data?.list ?? []}
        loading={list.isLoading}
        data-testid="content-table"
        noDataElement={<div className="content-empty">{list.isError ? t('contentPage.loadFailed') : t('contentPage.empty')}</div>}
        pagination={{
          current: page,
          pageSize,
          total: list.data?.total ?? 0,
          showTotal: true,
          sizeCanChange: true,
          onChange: (nextPage, nextSize) => {
            setPage(nextSize === pageSize ? nextPage : 1);
            setPageSize(nextSize);
          },
        }}
      />
      <ContentEditor open={editing !== null} item={editing?.item} onClose={() => setEditing(null)} />
    </Card>
  );
}
