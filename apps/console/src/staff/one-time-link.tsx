import { Button, Input, Message, Modal, Typography } from '@arco-design/web-react';
import { IconCopy } from '@arco-design/web-react/icon';
import type { StaffWriteResult } from '@mowerline/contract';
import type { Translate } from '../locale/i18n.ts';
import { copyText } from '../settings/copy-settings.ts';

type LinkKind = 'invite' | 'reset';

/**
 * Tells the admin the truth about a link just issued: "mailed to …" only when the mail
 * went out. Otherwise (no SMTP_URL, or the mail failed) the server answered the one-time link, once;
 * it is shown here to copy and hand over, and is gone when the dialog closes.
 */
export function announceLink(result: StaffWriteResult, kind: LinkKind, t: Translate): void {
  const link = result.resetLink;
  if (!link) return;
  if (link.mail === 'sent') {
    Message.success(t(kind === 'invite' ? 'staff.done.invited' : 'staff.done.linkSent', { name: result.name, email: result.email }));
    return;
  }
  const reason = t(link.mail === 'not_sent' ? 'staff.link.mailOff' : 'staff.link.mailFailed', { email: result.email });
  Message.warning(t(kind === 'invite' ? 'staff.link.invitedNotMailed' : 'staff.link.resetNotMailed', { name: result.name }));
  if (!link.link) return;
  const value = link.link;
  Modal.warning({
    title: t(kind === 'invite' ? 'staff.link.inviteTitle' : 'staff.link.resetTitle', { name: result.name }),
    maskClosable: false,
    okText: t('staff.link.close'),
    style: { width: 560, maxWidth: 'calc(100vw - 32px)' },
    content: (
      <div data-testid="staff-one-time-link">
        <Typography.Paragraph>{reason}</Typography.Paragraph>
        <Typography.Paragraph>{t('staff.link.handOver', { time: new Date(link.expiresAt).toLocaleString() })}</Typography.Paragraph>
        <Input.Group compact style={{ display: 'flex' }}>
          <Input readOnly value={value} aria-label={t('staff.link.label')} data-testid="staff-one-time-link-value" style={{ fontFamily: 'monospace', flex: 1 }} />
          <Button
            icon={<IconCopy />}
            aria-label={t('staff.link.copy')}
            onClick={() => copyText(value).then(() => Message.success(t('staff.link.copied')), () => Message.error(t('staff.link.copyFailed')))}
          >
            {t('staff.link.copy')}
          </Button>
        </Input.Group>
      </div>
    ),
  });
}
