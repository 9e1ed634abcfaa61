import { Form, Input, Link, Result } from '@arco-design/web-react';
import { IconEmail, IconIdcard, IconUser } from '@arco-design/web-react/icon';
import { useT } from '../locale/i18n.ts';
import { AuthFormCard } from './AuthFormCard.tsx';
import { useRegister } from './login.api.ts';
import { NewPasswordFields } from './NewPasswordFields.tsx';

interface RegisterValues {
  username: string;
  name: string;
  email: string;
  password: string;
  reason?: string;
}

// The contract's username rule (usernameSchema), checked here too so mistakes show before sending.
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._-]{2,31}$/;

/** /register: asks for a staff account; it stays pending until an administrator approves it. */
export default function RegisterPage() {
  const t = useT();
  const [form] = Form.useForm<RegisterValues>();
  const register = useRegister();
  const username: string = Form.useWatch('username', form) ?? '';

  const submit = (v: RegisterValues) =>
    register.mutate({ username: v.username.trim(), name: v.name.trim(), email: v.email.trim(), password: v.password, ...(v.reason?.trim() ? { reason: v.reason.trim() } : {}) });

  return (
    <AuthFormCard
      result={
        register.isSuccess && (
          <Result
            status="success"
            title={t('login.register.done.title')}
            subTitle={t('login.register.done.text', { username: register.data.username })}
            extra={<Link href="#/login">{t('login.back')}</Link>}
          />
        )
      }
      title={t('login.register.title')}
      subTitle={t('login.register.subTitle')}
      form={form}
      onSubmit={submit}
      submitText={t('login.register.submit')}
      submitting={register.isPending}
    >
      <Form.Item
        field="username"
        rules={[
          { required: true, message: t('login.register.username.errMsg') },
          { match: USERNAME, message: t('login.register.username.format') },
        ]}
      >
        <Input prefix={<IconUser />} placeholder={t('login.register.username.placeholder')} autoComplete="username" maxLength={32} />
      </Form.Item>
      <Form.Item field="name" rules={[{ required: true, message: t('login.register.name.errMsg') }]}>
        <Input prefix={<IconIdcard />} placeholder={t('login.register.name.placeholder')} autoComplete="name" maxLength={64} />
      </Form.Item>
      <Form.Item field="email" rules={[{ required: true, type: 'email', message: t('login.register.email.errMsg') }]}>
        <Input prefix={<IconEmail />} placeholder={t('login.register.email.placeholder')} autoComplete="email" maxLength={254} />
      </Form.Item>
      <NewPasswordFields username={username.trim()} />
      <Form.Item field="reason">
        <Input.TextArea placeholder={t('login.register.reason.placeholder')} maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
    </AuthFormCard>
  );
}
