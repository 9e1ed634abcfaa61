import { Button, Input, Message, Modal, Typography } from '@arco-design/web-react';
import { IconCopy } from '@arco-design/web-react/icon';
import type { Translate } from '../locale/i18n.ts';
import { copyText } from '../settings/copy-settings.ts';

/**
 * Shows a secret the server answered once (a new API key, a webhook's signing secret): to copy now,
 * gone when the dialog closes. The dialog closes only by its button, never by a stray click.
 */
export function showOneTimeSecret(t: Translate, opts: { title: string; text: string; value: string; testId: string }): void {
  Modal.info({
    title: opts.title,
    maskClosable: false,
    okText: t('integrations.secret.close'),
    style: { width: 600, maxWidth: 'calc(100vw - 32px)' },
    content: (
      <div data-testid={opts.testId}>
        <Typography.Paragraph>{opts.text}</Typography.Paragraph>
        <Input.Group compact style={{ display: 'flex' }}>
          <Input readOnly value={opts.value} aria-label={opts.title} data-testid={`${opts.testId}-value`} style={{ fontFamily: 'monospace', flex: 1 }} />
          <Button
            icon={<IconCopy />}
            aria-label={t('integrations.secret.copy')}
            onClick={() => copyText(opts.value).then(() => Message.success(t('integrations.secret.copied')), () => Message.error(t('integrations.secret.copyFailed')))}
          >
            {t('integrations.secret.copy')}
          </Button>
        </Input.Group>
      </div>
    ),
  });
}
