import { useEffect, useState } from 'react';
import { Alert, Checkbox, Form, InputTag, Message as Toast, Modal } from '@arco-design/web-react';
import { eventSeverities, type EventSeverity } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useNotifyPrefs, useSaveNotifyPrefs } from './messages.api.ts';

const CODE = /^[A-Z][A-Z0-9_]{1,47}$/;

/**
 * Which device exception events notify me: severities (critical and major until I
 * choose) and, optionally, only some fault codes. Bursts arrive folded, one notice per severity.
 */
export function NotifyPrefsModal({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const t = useT();
  const prefs = useNotifyPrefs(visible);
  const save = useSaveNotifyPrefs();
  const [severities, setSeverities] = useState<EventSeverity[]>([]);
  const [codes, setCodes] = useState<string[]>([]);
  useEffect(() => {
    if (prefs.data) {
      setSeverities(prefs.data.severities);
      setCodes(prefs.data.codes);
    }
  }, [prefs.data]);
  const badCode = codes.find((c) => !CODE.test(c));

  return (
    <Modal
      title={t('messagesPage.prefs.title')}
      visible={visible}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: !prefs.data || badCode !== undefined }}
      onOk={() => save.mutate({ severities, codes }, { onSuccess: () => (Toast.success(t('messagesPage.prefs.saved')), onClose()) })}
      unmountOnExit
    >
      <Form layout="vertical">
        <Form.Item label={t('messagesPage.prefs.severities')} extra={severities.length === 0 ? t('messagesPage.prefs.none') : undefined}>
          <div data-testid="notify-prefs-severities">
            <Checkbox.Group
              value={severities}
              onChange={(v: EventSeverity[]) => setSeverities(eventSeverities.filter((s) => v.includes(s)))}
              options={eventSeverities.map((s) => ({ value: s, label: t(`messagesPage.severity.${s}`) }))}
            />
          </div>
        </Form.Item>
        <Form.Item
          label={t('messagesPage.prefs.codes')}
          extra={badCode ? undefined : t('messagesPage.prefs.codesHint')}
          validateStatus={badCode ? 'error' : undefined}
          help={badCode ? t('messagesPage.prefs.badCode', { code: badCode }) : undefined}
        >
          <div data-testid="notify-prefs-codes">
            <InputTag
              value={codes}
              allowClear
              saveOnBlur
              placeholder="BLADE_BLOCKED"
              aria-label={t('messagesPage.prefs.codes')}
              onChange={(v: string[]) => setCodes([...new Set(v.map((c) => c.trim().toUpperCase()).filter(Boolean))].slice(0, 50))}
            />
          </div>
        </Form.Item>
        <Alert type="info" content={t('messagesPage.prefs.folding')} />
      </Form>
    </Modal>
  );
}
