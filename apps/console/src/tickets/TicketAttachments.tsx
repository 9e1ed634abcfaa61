import { useEffect, useState } from 'react';
import { Button, Image, Space, Spin, Typography } from '@arco-design/web-react';
import { IconDownload, IconFile } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import type { TicketAttachment } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { downloadAttachment, fetchAttachment } from './tickets.api.ts';
import { fileSize } from './labels.ts';

/**
 * An attachment's bytes as an object URL. The files need the bearer token, so an <img src> cannot
 * fetch them: they come through the authorized call and are shown from memory (the CSP allows
 * `blob:` images); the URL is revoked when nothing shows it any more.
 */
function useAttachmentUrl(ticketId: number, attachmentId: number, thumbnail: boolean, enabled = true): string | undefined {
  const blob = useQuery({
    queryKey: ['ticket-attachment', ticketId, attachmentId, thumbnail],
    queryFn: () => fetchAttachment(ticketId, attachmentId, thumbnail),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!(blob.data instanceof Blob)) return;
    const next = URL.createObjectURL(blob.data);
    setUrl(next);
    return () => {
      URL.revokeObjectURL(next);
      setUrl(undefined);
    };
  }, [blob.data]);
  return url;
}

function ImageAttachment({ ticketId, file }: { ticketId: number; file: TicketAttachment }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const thumb = useAttachmentUrl(ticketId, file.id, file.thumbnail);
  const full = useAttachmentUrl(ticketId, file.id, false, open && file.thumbnail);
  return (
    <>
      <button type="button" className="ticket-thumb" onClick={() => setOpen(true)} aria-label={t('ticket.attachment.preview', { name: file.name })} data-attachment={file.name}>
        {thumb ? <img src={thumb} alt={file.name} /> : <Spin size={16} />}
      </button>
      <Image.Preview src={(file.thumbnail ? full : thumb) ?? ''} visible={open && !!(file.thumbnail ? full : thumb)} onVisibleChange={setOpen} />
    </>
  );
}

/** A ticket's or an entry's files: images as thumbnails that open full size, every file downloadable under its name. */
export function TicketAttachments({ ticketId, files }: { ticketId: number; files: TicketAttachment[] }) {
  const t = useT();
  if (files.length === 0) return null;
  return (
    <div className="ticket-attachments" data-testid="ticket-attachments">
      {files.map((file) => (
        <div key={file.id} className="ticket-attachment">
          {file.mime.startsWith('image/') ? <ImageAttachment ticketId={ticketId} file={file} /> : <IconFile className="ticket-file-icon" />}
          <Space direction="vertical" size={0} className="ticket-attachment-meta">
            <Typography.Text ellipsis style={{ maxWidth: 160, margin: 0 }} title={file.name}>
              {file.name}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {fileSize(file.size)}
            </Typography.Text>
          </Space>
          <Button
            size="mini"
            type="text"
            icon={<IconDownload />}
            aria-label={t('ticket.attachment.download', { name: file.name })}
            onClick={() => void downloadAttachment(ticketId, file.id, file.name).catch(() => {})}
          />
        </div>
      ))}
    </div>
  );
}
