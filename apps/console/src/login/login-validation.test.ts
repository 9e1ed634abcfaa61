import { describe, expect, it } from 'vitest';
import en from './locale/en-US.ts';
import zh from './locale/zh-CN.ts';
import { validateLogin } from './login-validation.ts';

const empty = { username: '', password: '', captcha: '' };

describe('sign-in form rules', () => {
  it('names each empty field with its own message in both languages', () => {
    const errors = validateLogin(empty, false);
    expect(en[errors.username as keyof typeof en]).toBe('Username cannot be empty');
    expect(en[errors.password as keyof typeof en]).toBe('Password cannot be empty');
    expect(zh[errors.username as keyof typeof zh]).toBe('用户名不能为空');
    expect(zh[errors.password as keyof typeof zh]).toBe('密码不能为空');
    expect(errors.captcha).toBeUndefined();
  });

  it('treats a blank username as empty and asks for the captcha only when shown', () => {
    expect(validateLogin({ username: '  ', password: 'x', captcha: '' }, true)).toEqual({
      username: 'login.form.userName.errMsg',
      captcha: 'login.form.captcha.errMsg',
    });
    expect(validateLogin({ username: 'admin', password: 'x', captcha: 'eyJjaGFsbGVuZ2UiOnt9fQ==' }, true)).toEqual({});
  });

  it('has the failure and success texts of the spec', () => {
    expect(en['login.form.login.errMsg']).toBe('Login error, refresh and try again');
    expect(en['login.form.login.success']).toBe('welcome to use');
    expect(zh['login.form.login.errMsg']).toBe('登录出错，请刷新重试');
    expect(zh['login.form.login.success']).toBe('欢迎使用');
  });
});
