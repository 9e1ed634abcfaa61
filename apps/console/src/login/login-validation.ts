export interface LoginFields {
  username: string;
  password: string;
  /** The solved captcha: the widget's payload, empty until the proof of work is done. */
  captcha: string;
}

export type LoginErrors = Partial<Record<keyof LoginFields, string>>;

/**
 * Spec §5 sign-in form rules; the values are locale keys ('Username cannot be empty',
 * 'Password cannot be empty' and, when the server asked for one, a captcha still being solved).
 */
export function validateLogin(values: LoginFields, captchaShown: boolean): LoginErrors {
  const errors: LoginErrors = {};
  if (!values.username.trim()) errors.username = 'login.form.userName.errMsg';
  if (!values.password) errors.password = 'login.form.password.errMsg';
  if (captchaShown && !values.captcha) errors.captcha = 'login.form.captcha.errMsg';
  return errors;
}
