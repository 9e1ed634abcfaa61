import { Button, Form, Input, Message, Space } from '@arco-design/web-react';
import { emailSchema, profileBodySchema, type ProfileBody, type UserInfo } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { useUpdateProfile } from './user-center.api.ts';
import { schemaRule } from './zod-rule.ts';

const editable = ['name', 'email', 'phone', 'job', 'organization', 'location', 'personalWebsite', 'introduction'] as const;

function profileOf(info: UserInfo): Required<ProfileBody> {
  return Object.fromEntries(editable.map((key) => [key, info[key]])) as Required<ProfileBody>;
}

/** Spec §3 user info: the fields a member of staff may change about themselves. */
export function ProfileForm({ info }: { info: UserInfo }) {
  const t = useT();
  const [form] = Form.useForm<Required<ProfileBody>>();
  const update = useUpdateProfile();

  // Only what changed is sent (and audited); an empty address the account never had is left alone.
  const save = (values: Required<ProfileBody>) => {
    const before = profileOf(info);
    const changes = Object.fromEntries(editable.filter((key) => (values[key] ?? '') !== before[key]).map((key) => [key, values[key] ?? '']));
    if (Object.keys(changes).length === 0) return Message.info(t('userCenter.profile.unchanged'));
    // The saved profile re-seeds (remounts) this form, so the toast hangs on the promise, which
    // survives the remount; a refusal was already shown by the request policy.
    update
      .mutateAsync(changes)
      .then(() => Message.success(t('userCenter.profile.saved')))
      .catch(() => undefined);
  };

  // Over-long text is refused with the limit named, never cut silently (the server's limits, auth.ts).
  const tooLong = (n: number) => ({ maxLength: n, message: t('userCenter.rule.tooLong', { n }) });

  return (
    <Form
      form={form}
      layout="horizontal"
      labelCol={{ span: 5 }}
      wrapperCol={{ span: 19 }}
      style={{ maxWidth: 640 }}
      initialValues={profileOf(info)}
      onSubmit={save}
      autoComplete="on"
    >
      <Form.Item label={t('userCenter.field.name')} field="name" rules={[{ required: true, message: t('userCenter.rule.name') }, tooLong(64)]}>
        <Input maxLength={{ length: 64, errorOnly: true }} showWordLimit autoComplete="name" />
      </Form.Item>
      <Form.Item
        label={t('userCenter.field.email')}
        field="email"
        rules={[{ required: !!info.email, message: t('userCenter.rule.email') }, schemaRule(emailSchema, t('userCenter.rule.email'))]}
      >
        <Input maxLength={254} autoComplete="email" />
      </Form.Item>
      <Form.Item label={t('userCenter.field.phone')} field="phone" rules={[tooLong(32)]}>
        <Input maxLength={{ length: 32, errorOnly: true }} autoComplete="tel" />
      </Form.Item>
      <Form.Item label={t('userCenter.field.job')} field="job" rules={[tooLong(64)]}>
        <Input maxLength={{ length: 64, errorOnly: true }} autoComplete="organization-title" />
      </Form.Item>
      <Form.Item label={t('userCenter.field.organization')} field="organization" rules={[tooLong(128)]}>
        <Input maxLength={{ length: 128, errorOnly: true }} autoComplete="organization" />
      </Form.Item>
      <Form.Item label={t('userCenter.field.location')} field="location" rules={[tooLong(128)]}>
        <Input maxLength={{ length: 128, errorOnly: true }} />
      </Form.Item>
      <Form.Item
        label={t('userCenter.field.personalWebsite')}
        field="personalWebsite"
        rules={[schemaRule(profileBodySchema.shape.personalWebsite, t('userCenter.rule.website'))]}
      >
        <Input maxLength={{ length: 256, errorOnly: true }} placeholder="https://" autoComplete="url" />
      </Form.Item>
      <Form.Item label={t('userCenter.field.introduction')} field="introduction" rules={[tooLong(500)]}>
        <Input.TextArea maxLength={{ length: 500, errorOnly: true }} showWordLimit autoSize={{ minRows: 3, maxRows: 6 }} />
      </Form.Item>
      <Form.Item wrapperCol={{ offset: 5, span: 19 }}>
        <Space>
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            {t('userCenter.profile.save')}
          </Button>
          <Button onClick={() => form.setFieldsValue(profileOf(info))}>{t('userCenter.profile.reset')}</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
