import { useEffect, useRef, useState } from 'react';
import { Button, Drawer, Form, Input, Message, Radio, Select, Space, Tabs, Typography } from '@arco-design/web-react';
import { IconUpload } from '@arco-design/web-react/icon';
import { contentTypes, locales, type ContentFileKind, type ContentItem, type ContentType, type Locale } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useProductModels } from '../devices/devices.api.ts';
import { renderMarkdown } from './markdown.ts';
import { useCreateContent, useUpdateContent, useUploadContentFile, type ContentWriteInput } from './content.api.ts';
import './content.css';

interface Draft {
  type: ContentType;
  title: Record<Locale, string>;
  body: Record<Locale, string>;
  cover: { id: number; url: string } | null;
  media: { id: number; url: string } | null;
  mediaUrl: string;
  models: string[];
}

const emptyDraft = (): Draft => ({ type: 'text', title: { 'zh-CN': '', 'en-US': '' }, body: { 'zh-CN': '', 'en-US': '' }, cover: null, media: null, mediaUrl: '', models: [] });
const fromItem = (item: ContentItem): Draft => ({
  type: item.type,
  title: item.title,
  body: item.body,
  cover: item.coverFileId && item.coverUrl ? { id: item.coverFileId, url: item.coverUrl } : null,
  media: item.mediaFileId && item.mediaHref ? { id: item.mediaFileId, url: item.mediaHref } : null,
  mediaUrl: item.mediaUrl ?? '',
  models: item.models,
});

/** Picks a file and uploads it at once; the server sniffs, re-encodes images and answers a signed link. */
function FileButton({ kind, label, onUploaded, testId }: { kind: ContentFileKind; label: string; onUploaded(file: { id: number; url: string }): void; testId: string }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadContentFile();
  return (
    <>
      <input
        ref={input}
        type="file"
        hidden
        accept={kind === 'image' ? 'image/jpeg,image/png,image/webp,image/gif' : 'video/mp4,video/webm,video/quicktime'}
        data-testid={testId}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload.mutateAsync({ kind, file }).then((stored) => onUploaded({ id: stored.id, url: stored.url }), () => {});
        }}
      />
      <Button icon={<IconUpload />} loading={upload.isPending} onClick={() => input.current?.click()}>
        {label}
      </Button>
    </>
  );
}

/** New or edit: both languages side by side in tabs, cover, the post's image or video, target models. */
export function ContentEditor({ item, open, onClose }: { item?: ContentItem; open: boolean; onClose(): void }) {
  const t = useT();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [lang, setLang] = useState<Locale>('zh-CN');
  const [preview, setPreview] = useState(false);
  const models = useProductModels();
  const create = useCreateContent();
  const update = useUpdateContent();
  useEffect(() => {
    if (open) setDraft(item ? fromItem(item) : emptyDraft());
  }, [open, item]);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const save = async () => {
    if (locales.some((l) => !draft.title[l].trim())) {
      Message.warning(t('contentPage.needTitles'));
      return;
    }
    const body: ContentWriteInput = {
      type: draft.type,
      title: draft.title,
      body: draft.body,
      coverFileId: draft.cover?.id ?? null,
      mediaFileId: draft.type === 'text' ? null : (draft.media?.id ?? null),
      mediaUrl: draft.type === 'video' && !draft.media && draft.mediaUrl.trim() ? draft.mediaUrl.trim() : null,
      models: draft.models,
    };
    if (item) await update.mutateAsync({ id: item.id, body });
    else await create.mutateAsync(body);
    Message.success(t('contentPage.saved'));
    onClose();
  };

  return (
    <Drawer
      width={640}
      visible={open}
      title={item ? t('contentPage.edit') : t('contentPage.new')}
      onCancel={onClose}
      unmountOnExit
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={create.isPending || update.isPending} onClick={() => void save().catch(() => {})} data-testid="content-save">
            {t('contentPage.save')}
          </Button>
        </Space>
      }
    >
      <Form layout="vertical">
        <Form.Item label={t('contentPage.field.type')}>
          <Radio.Group type="button" value={draft.type} onChange={(type: ContentType) => set({ type, media: null, mediaUrl: '' })}>
            {contentTypes.map((type) => (
              <Radio key={type} value={type} data-testid={`content-type-${type}`}>
                {t(`contentPage.type.${type}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Tabs activeTab={lang} onChange={(key) => setLang(key as Locale)}>
          {locales.map((l) => (
            <Tabs.TabPane key={l} title={t(`contentPage.lang.${l}`)}>
              <Form.Item label={t('contentPage.field.title')} required>
                <Input value={draft.title[l]} maxLength={200} onChange={(v) => set({ title: { ...draft.title, [l]: v } })} data-testid={`content-title-${l}`} />
              </Form.Item>
              <Form.Item
                label={
                  <Space>
                    {draft.type === 'text' ? t('contentPage.field.markdown') : t('contentPage.field.caption')}
                    {draft.type === 'text' && (
                      <Button size="mini" type="text" onClick={() => setPreview((p) => !p)} data-testid={`content-preview-toggle-${l}`}>
                        {preview ? t('contentPage.editSource') : t('contentPage.preview')}
                      </Button>
                    )}
                  </Space>
                }
              >
                {preview && draft.type === 'text' ? (
                  // Rendered with raw HTML off and only http(s)/relative links (markdown.ts).
                  <div className="content-markdown" data-testid={`content-preview-${l}`} dangerouslySetInnerHTML={{ __html: renderMarkdown(draft.body[l]) }} />
                ) : (
                  <Input.TextArea value={draft.body[l]} autoSize={{ minRows: 6, maxRows: 18 }} onChange={(v) => set({ body: { ...draft.body, [l]: v } })} data-testid={`content-body-${l}`} />
                )}
              </Form.Item>
            </Tabs.TabPane>
          ))}
        </Tabs>
        <Form.Item label={t('contentPage.field.cover')}>
          <Space align="start">
            {draft.cover && <img className="content-thumb" src={draft.cover.url} alt={t('contentPage.field.cover')} />}
            <FileButton kind="image" label={t('contentPage.uploadImage')} testId="content-cover-file" onUploaded={(cover) => set({ cover })} />
            {draft.cover && <Button onClick={() => set({ cover: null })}>{t('contentPage.remove')}</Button>}
          </Space>
        </Form.Item>
        {draft.type === 'image' && (
          <Form.Item label={t('contentPage.field.image')} required>
            <Space align="start">
              {draft.media && <img className="content-thumb" src={draft.media.url} alt={t('contentPage.field.image')} />}
              <FileButton kind="image" label={t('contentPage.uploadImage')} testId="content-media-image" onUploaded={(media) => set({ media })} />
            </Space>
          </Form.Item>
        )}
        {draft.type === 'video' && (
          <Form.Item label={t('contentPage.field.video')} required extra={t('contentPage.videoHint')}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space>
                <FileButton kind="video" label={t('contentPage.uploadVideo')} testId="content-media-video" onUploaded={(media) => set({ media, mediaUrl: '' })} />
                {draft.media && (
                  <>
                    <Typography.Text type="secondary">{t('contentPage.videoUploaded')}</Typography.Text>
                    <Button onClick={() => set({ media: null })}>{t('contentPage.remove')}</Button>
                  </>
                )}
              </Space>
              {!draft.media && <Input value={draft.mediaUrl} placeholder="https://" onChange={(mediaUrl) => set({ mediaUrl })} data-testid="content-video-url" />}
            </Space>
          </Form.Item>
        )}
        <Form.Item label={t('contentPage.field.models')} extra={t('contentPage.modelsHint')}>
          <Select mode="multiple" allowClear value={draft.models} onChange={(value: string[]) => set({ models: value })} options={(models.data ?? []).map((m) => ({ label: `${m.code} · ${m.name}`, value: m.code }))} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
