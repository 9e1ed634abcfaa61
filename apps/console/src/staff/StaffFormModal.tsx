import { Alert, Form, Input, Message, Modal, Select } from '@arco-design/web-react';
import {
  emailSchema,
  roleDescriptions,
  roles,
  staffStatuses,
  usernameSchema,
  type Role,
  type StaffStatus,
  type StaffUpdateBody,
  type StaffUser,
} from '@mowerline/contract';
import { useLocaleStore, useT } from '../locale/i18n.ts';
import { PasswordPolicyHint, passwordPolicyRule } from '../user-center/PasswordPolicyHint.tsx';
import { schemaRule } from '../user-center/zod-rule.ts';
import { announceLink } from './one-time-link.tsx';
import { useCreateStaff, useUpdateStaff } from './staff.api.ts';

interface Values {
  username: string;
  name: string;
  email: string;
  phone?: string;
  role: Role;
  status: StaffStatus;
  password?: string;
}

const editable = ['name', 'email', 'phone', 'role', 'status'] as const;

/** Only what changed goes to the server, so the system log records the real change. */
function changesOf(before: StaffUser, values: Values): Omit<StaffUpdateBody, 'id'> {
  const changes: Record<string, string> = {};
  for (const key of editable) {
    const value = (values[key] ?? '').trim();
    if (value !== before[key]) changes[key] = value;
  }
  return changes;
}

/** Add a member of staff (`editing` null) or edit one. Without a password the new colleague is mailed an invitation. */
export function StaffFormModal({ editing, visible, onClose }: { editing: StaffUser | null; visible: boolean; onClose(): void }) {
  const t = useT();
  const locale = useLocaleStore((s) => s.locale);
  const [form] = Form.useForm<Values>();
  const create = useCreateStaff();
  const update = useUpdateStaff();
  const password = Form.useWatch('password', form) ?? '';
  const username = Form.useWatch('username', form) ?? '';

  const submit = async () => {
    // An invalid form shows its messages in place; nothing to send.
    const values = await form.validate().catch(() => null);
    if (!values) return;
    if (!editing) {
      const { status: _status, password: pw, phone, ...rest } = values;
      create.mutate(
        { ...rest, phone: phone?.trim() || undefined, password: pw || undefined },
        {
          onSuccess: (user) => {
            if (pw) Message.success(t('staff.done.created', { name: user.name }));
            else announceLink(user, 'invite', t);
            onClose();
          },
        },
      );
      return;
    }
    const changes = changesOf(editing, values);
    if (Object.keys(changes).length === 0) return onClose();
    update.mutate({ id: editing.id, ...changes }, { onSuccess: () => (Message.success(t('staff.done.saved', { name: values.name })), onClose()) });
  };

  const statusOptions = staffStatuses
    // An approved account cannot go back to pending (the server refuses it too).
    .filter((status) => status !== 'pending' || editing?.status === 'pending')
    .map((status) => ({ value: status, label: t(`staff.status.${status}`) }));

  return (
    <Modal
      title={t(editing ? 'staff.form.editTitle' : 'staff.form.addTitle')}
      visible={visible}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={create.isPending || update.isPending}
      unmountOnExit
      style={{ width: 560, maxWidth: 'calc(100vw - 32px)' }}
      okText={t(editing ? 'staff.form.save' : 'staff.form.add')}
    >
      <Form
        form={form}
        layout="vertical"
        autoComplete="off"
        initialValues={editing ?? { role: 'user', status: 'active' }}
      >
        <Form.Item
          label={t('staff.field.username')}
          field="username"
          disabled={!!editing}
          rules={editing ? [] : [{ required: true, message: t('staff.rule.username') }, schemaRule(usernameSchema, t('staff.rule.username'))]}
        >
          <Input maxLength={32} autoComplete="off" />
        </Form.Item>
        <Form.Item label={t('staff.field.name')} field="name" rules={[{ required: true, message: t('staff.rule.name') }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          label={t('staff.field.email')}
          field="email"
          // The first admin may have no address yet; an address once given can be changed, not removed.
          rules={[{ required: !editing || !!editing.email, message: t('staff.rule.email') }, schemaRule(emailSchema, t('staff.rule.email'))]}
        >
          <Input maxLength={254} />
        </Form.Item>
        <Form.Item label={t('staff.field.phone')} field="phone">
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item label={t('staff.field.role')} field="role" rules={[{ required: true }]}>
          <Select options={roles.map((role) => ({ value: role, label: roleDescriptions[role].name[locale] }))} />
        </Form.Item>
        {editing ? (
          <Form.Item label={t('staff.field.status')} field="status">
            <Select options={statusOptions} />
          </Form.Item>
        ) : (
          <Form.Item
            label={t('staff.field.password')}
            field="password"
            rules={[passwordPolicyRule(t('staff.rule.policy'), () => username)]}
            extra={password ? <PasswordPolicyHint password={password} username={username} /> : undefined}
          >
            <Input.Password maxLength={128} autoComplete="new-password" placeholder={t('staff.field.passwordOptional')} />
          </Form.Item>
        )}
        {!editing && !password && <Alert type="info" content={t('staff.form.inviteHint')} />}
        {editing && <Alert type="warning" content={t('staff.form.accessHint')} />}
      </Form>
    </Modal>
  );
}
