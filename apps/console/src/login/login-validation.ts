export interface LoginFields {
  username: string;
  password: string;
  captchaCode: string;
}

export type LoginErrors = Partial<Record<keyof LoginFields, string>>;

/**
 * Spec §5 sign-in form rules; the values are locale keys ('Username cannot be empty',
 * 'Password cannot be empty' and, when the server asked for one, the captcha's).
 */
export function validateLogin(values: LoginFields, captchaShown: boolean): LoginErrors {
  const errors: LoginErrors = {};
  if (!values.username.trim()) errors.username = 'login.form.userName.errMsg';
  if (!values.password) errors.password = 'login.form.password.errMsg';
  if (captchaShown && !values.captchaCode.trim()) errors.captchaCode = 'login.form.captcha.errMsg';
  return errors;
}
