import { useState } from 'react';
import { Alert, Button, List, Message, Modal, Popconfirm, Space, Tag, Typography } from '@arco-design/web-react';
import type { TotpEnrolment as Enrolment } from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { TotpEnrolment } from './TotpEnrolment.tsx';
import { registerPasskey } from './passkey.ts';
import { invalidate } from '../api/endpoint-client.ts';
import { useQueryClient } from '@tanstack/react-query';
import { twoFactorApi } from '@mowerline/contract';
import { syncUser, useRegenerateCodes, useRemoveFactor, useStartTotp, useTwoFactorStatus } from './two-factor.api.ts';

/** User center: my second factors, my recovery codes, and enrolment (where REQUIRE_2FA_ROLES sends a new admin). */
export function SecondFactors() {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const status = useTwoFactorStatus();
  const start = useStartTotp();
  const remove = useRemoveFactor();
  const regenerate = useRegenerateCodes();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [registering, setRegistering] = useState(false);
  const client = useQueryClient();
  const addPasskey = async () => {
    setRegistering(true);
    try {
      const recovery = await registerPasskey(t('twoFactor.passkey.defaultName'));
      setCodes(recovery);
      void syncUser();
    } catch (error) {
      // A refusal by the server was toasted by the request policy; a cancelled browser prompt is not an error.
      if (error instanceof Error && error.name !== 'NotAllowedError' && !('code' in error)) Message.error(t('twoFactor.passkey.failed'));
    } finally {
      setRegistering(false);
      void invalidate(client, twoFactorApi.status);
    }
  };
  const data = status.data;
  if (!data) return null;
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale) : t('twoFactor.never'));

  return (
    <section className="two-factor" data-testid="second-factors">
      <Typography.Title heading={6}>{t('twoFactor.title')}</Typography.Title>
      {data.required && data.factors.length === 0 ? <Alert type="warning" content={t('twoFactor.required')} style={{ marginBottom: 16 }} data-testid="two-factor-required" /> : null}
      {data.factors.length > 0 ? (
        <List
          size="small"
          dataSource={data.factors}
          render={(factor) => (
            <List.Item
              key={factor.id}
              actions={[
                <Popconfirm key="remove" title={t('twoFactor.remove.confirm')} onOk={() => remove.mutate(factor.id, { onSuccess: () => void syncUser() })}>
                  <Button size="mini" status="danger">
                    {t('twoFactor.remove')}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <Space>
                <Tag color="arcoblue">{t(`twoFactor.kind.${factor.kind}`)}</Tag>
                <span>{factor.name}</span>
                <Typography.Text type="secondary">
                  {t('twoFactor.added', { when: when(factor.createdAt) })} · {t('twoFactor.lastUsed', { when: when(factor.lastUsedAt) })}
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      ) : null}
      {enrolment ? (
        <TotpEnrolment
          enrolment={enrolment}
          onCancel={() => setEnrolment(null)}
          onDone={(recovery) => {
            setEnrolment(null);
            setCodes(recovery);
          }}
        />
      ) : (
        <Space style={{ marginTop: 12 }}>
          <Button type="primary" loading={start.isPending} onClick={() => start.mutate(t('twoFactor.totp.defaultName'), { onSuccess: setEnrolment })} data-testid="add-totp">
            {t('twoFactor.totp.add')}
          </Button>
          <Button loading={registering} onClick={() => void addPasskey()} data-testid="add-passkey">
            {t('twoFactor.passkey.add')}
          </Button>
          {data.factors.length > 0 ? (
            <Popconfirm title={t('twoFactor.recovery.regenerateConfirm')} onOk={() => regenerate.mutate({}, { onSuccess: (r) => setCodes(r.recoveryCodes) })}>
              <Button>{t('twoFactor.recovery.regenerate')}</Button>
            </Popconfirm>
          ) : null}
          {data.factors.length > 0 ? <Typography.Text type="secondary">{t('twoFactor.recovery.left', { n: data.recoveryCodesLeft })}</Typography.Text> : null}
        </Space>
      )}
      <Modal
        title={t('twoFactor.recovery.title')}
        visible={!!codes}
        onOk={() => setCodes(null)}
        onCancel={() => setCodes(null)}
        hideCancel
        okText={t('twoFactor.recovery.saved')}
        maskClosable={false}
      >
        <p>{t('twoFactor.recovery.hint')}</p>
        <Typography.Paragraph code copyable={{ text: codes?.join('\n') ?? '' }} data-testid="recovery-codes">
          {codes?.join('  ')}
        </Typography.Paragraph>
      </Modal>
    </section>
  );
}
