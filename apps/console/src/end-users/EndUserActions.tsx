import { useState } from 'react';
import { Button, Form, Input, Message, Modal, Popconfirm, Space } from '@arco-design/web-react';
import { permissions, type EndUser } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { usePermission } from '../permission/usePermission.ts';
import { useCancelDeletion, useConfirmEndUser, useDisableEndUser, useEnableEndUser, useSendReset } from './end-users.api.ts';

/** Disable (reason required) or enable (reason optional): the confirmation is this dialog. */
function ReasonModal({ user, mode, onClose }: { user: EndUser; mode: 'disable' | 'enable' | undefined; onClose(): void }) {
  const t = useT();
  const [form] = Form.useForm<{ reason?: string }>();
  const disable = useDisableEndUser();
  const enable = useEnableEndUser();
  const pending = disable.isPending || enable.isPending;
  const submit = async () => {
    const values = await form.validate().catch(() => null);
    if (!values || !mode) return;
    const reason = values.reason?.trim() ?? '';
    const done = () => {
      Message.success(t(`endUser.done.${mode}`, { email: user.email }));
      onClose();
    };
    if (mode === 'disable') disable.mutate({ id: user.id, reason }, { onSuccess: done });
    else enable.mutate({ id: user.id, reason }, { onSuccess: done });
  };
  return (
    <Modal
      title={t(mode === 'disable' ? 'endUser.confirm.disable' : 'endUser.confirm.enable', { email: user.email })}
      visible={!!mode}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={pending}
      okText={t(mode === 'disable' ? 'endUser.do.disable' : 'endUser.do.enable')}
      okButtonProps={{ status: mode === 'disable' ? 'danger' : 'default' }}
      unmountOnExit
      style={{ width: 480, maxWidth: 'calc(100vw - 32px)' }}
    >
      <Form form={form} layout="vertical" autoComplete="off">
        <Form.Item
          field="reason"
          label={t('endUser.field.reason')}
          extra={mode === 'disable' ? t('endUser.confirm.disableDetail') : undefined}
          rules={mode === 'disable' ? [{ required: true, message: t('endUser.rule.reason') }] : []}
        >
          <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 5 }} placeholder={t('endUser.filter.reason')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A button behind a Popconfirm. */
function Confirmed({ title, detail, label, pending, onOk, testId }: { title: string; detail?: string; label: string; pending: boolean; onOk(): void; testId: string }) {
  return (
    <Popconfirm title={title} content={detail} onOk={onOk}>
      <Button loading={pending} data-testid={testId}>
        {label}
      </Button>
    </Popconfirm>
  );
}

/**
 * What support staff can do for an account, by its status and the viewer's role: confirm an
 * unverified account, mail a password reset, cancel a pending deletion, disable/enable.
 */
export function EndUserActions({ user }: { user: EndUser }) {
  const t = useT();
  const { can } = usePermission();
  const confirm = useConfirmEndUser();
  const reset = useSendReset();
  const cancel = useCancelDeletion();
  const [reasonFor, setReasonFor] = useState<'disable' | 'enable'>();
  const support = can(permissions.endUsersSupport);
  const admin = can(permissions.endUsersAdmin);
  const ok = (key: string) => () => Message.success(t(key, { email: user.email }));
  const s = user.status;
  if (!support && !admin) return null;
  return (
    <Space wrap className="end-user-actions" data-testid="end-user-actions">
      {support && s === 'unverified' && (
        <Confirmed
          testId="end-user-confirm"
          title={t('endUser.confirm.confirm', { email: user.email })}
          detail={t('endUser.confirm.confirmDetail')}
          label={t('endUser.do.confirm')}
          pending={confirm.isPending}
          onOk={() => confirm.mutate(user.id, { onSuccess: ok('endUser.done.confirm') })}
        />
      )}
      {support && s === 'active' && (
        <Confirmed
          testId="end-user-reset"
          title={t('endUser.confirm.reset', { email: user.email })}
          detail={t('endUser.confirm.resetDetail')}
          label={t('endUser.do.reset')}
          pending={reset.isPending}
          onOk={() => reset.mutate(user.id, { onSuccess: ok('endUser.done.reset') })}
        />
      )}
      {support && s === 'deletion_pending' && (
        <Confirmed
          testId="end-user-cancel-deletion"
          title={t('endUser.confirm.cancelDeletion', { email: user.email })}
          label={t('endUser.do.cancelDeletion')}
          pending={cancel.isPending}
          onOk={() => cancel.mutate(user.id, { onSuccess: ok('endUser.done.cancelDeletion') })}
        />
      )}
      {admin && s !== 'disabled' && (
        <Button status="danger" onClick={() => setReasonFor('disable')} data-testid="end-user-disable">
          {t('endUser.do.disable')}
        </Button>
      )}
      {admin && s === 'disabled' && (
        <Button status="success" onClick={() => setReasonFor('enable')} data-testid="end-user-enable">
          {t('endUser.do.enable')}
        </Button>
      )}
      <ReasonModal user={user} mode={reasonFor} onClose={() => setReasonFor(undefined)} />
    </Space>
  );
}
