import type { ReactNode } from 'react';
import { Button, Form, type FormInstance } from '@arco-design/web-react';
import { useT } from '../locale/i18n.ts';
import { AuthHeading } from './AuthHeading.tsx';
import { AuthLayout } from './AuthLayout.tsx';

interface AuthFormCardProps<V> {
  /** Shown instead of the form once it has done its job (or cannot be used). */
  result?: ReactNode;
  title: string;
  subTitle: string;
  form?: FormInstance<V>;
  onSubmit(values: V): void;
  submitText: string;
  submitting: boolean;
  /** The form's fields, above the submit and back-to-sign-in buttons. */
  children: ReactNode;
}

/** The card of the public forms (forgot, register, reset): heading, fields, submit, back to sign-in. */
export function AuthFormCard<V>({ result, title, subTitle, form, onSubmit, submitText, submitting, children }: AuthFormCardProps<V>) {
  const t = useT();
  return (
    <AuthLayout>
      <div className="login-form-wrapper">
        {result ? (
          result
        ) : (
          <>
            <AuthHeading title={title} subTitle={subTitle} />
            <Form form={form} layout="vertical" className="login-form" onSubmit={onSubmit}>
              {children}
              <Button type="primary" htmlType="submit" long loading={submitting}>
                {submitText}
              </Button>
              <Button type="text" long className="login-form-register" href="#/login">
                {t('login.back')}
              </Button>
            </Form>
          </>
        )}
      </div>
    </AuthLayout>
  );
}
