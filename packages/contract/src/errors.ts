import { defaultLocale, type Locale, type Localized } from './locale.ts';

interface ErrorDef extends Localized {
  code: number;
  http: number;
}

/**
 * The error catalogue. `code` travels in the envelope, `http` is the response status,
 * messages are chosen by Accept-Language and may hold `{name}` placeholders.
 * 50000 (failure) and 50008 (not signed in) are the spec's own codes.
 */
export const errors = {
  OK: { code: 0, http: 200, 'zh-CN': '请求成功', 'en-US': 'Request success' },
  FAILURE: { code: 50000, http: 500, 'zh-CN': '服务器内部错误', 'en-US': 'Internal server error' },
  NOT_SIGNED_IN: { code: 50008, http: 401, 'zh-CN': '未登录或登录已过期', 'en-US': 'Not signed in or the session has expired' },
  VALIDATION: { code: 40000, http: 400, 'zh-CN': '请求参数错误：{detail}', 'en-US': 'Invalid request: {detail}' },
  FORBIDDEN: { code: 40003, http: 403, 'zh-CN': '没有权限执行此操作', 'en-US': 'You do not have permission to do this' },
  NOT_FOUND: { code: 40004, http: 404, 'zh-CN': '资源不存在', 'en-US': 'Not found' },
  CONFLICT: { code: 40009, http: 409, 'zh-CN': '数据冲突，请刷新后重试', 'en-US': 'Conflict, refresh and try again' },
  BODY_TOO_LARGE: { code: 40013, http: 413, 'zh-CN': '请求体过大', 'en-US': 'Request body too large' },
  UNSUPPORTED_MEDIA: { code: 40015, http: 415, 'zh-CN': '不支持的请求格式', 'en-US': 'Unsupported content type' },
  RATE_LIMITED: { code: 40029, http: 429, 'zh-CN': '请求过于频繁，请稍后再试', 'en-US': 'Too many requests, try again later' },
  LOGIN_FAILED: { code: 41001, http: 400, 'zh-CN': '用户名或密码错误', 'en-US': 'Wrong username or password' },
  CAPTCHA_REQUIRED: { code: 41002, http: 400, 'zh-CN': '请输入验证码', 'en-US': 'Enter the verification code' },
  CAPTCHA_INVALID: { code: 41003, http: 400, 'zh-CN': '验证码错误或已过期', 'en-US': 'The verification code is wrong or has expired' },
  ACCOUNT_LOCKED: { code: 41004, http: 400, 'zh-CN': '登录失败次数过多，账号已临时锁定，请 {minutes} 分钟后再试', 'en-US': 'Too many failed sign-ins: the account is locked, try again in {minutes} minutes' },
  ACCOUNT_PENDING: { code: 41005, http: 400, 'zh-CN': '账号正在等待管理员审批', 'en-US': 'The account is waiting for an administrator to approve it' },
  ACCOUNT_DISABLED: { code: 41006, http: 400, 'zh-CN': '账号已停用，请联系管理员', 'en-US': 'The account is disabled, contact an administrator' },
  WEAK_PASSWORD: { code: 41007, http: 400, 'zh-CN': '密码不符合要求：至少 8 位，且包含小写字母、大写字母、数字、符号中的三类，不能包含用户名', 'en-US': 'The password does not meet the policy: at least 8 characters with three of lower case, upper case, digits and symbols, and not containing the username' },
  WRONG_OLD_PASSWORD: { code: 41008, http: 400, 'zh-CN': '原密码错误', 'en-US': 'The current password is wrong' },
  RESET_TOKEN_INVALID: { code: 41009, http: 400, 'zh-CN': '重置链接无效或已过期', 'en-US': 'The reset link is invalid or has expired' },
  USERNAME_TAKEN: { code: 41010, http: 409, 'zh-CN': '用户名已存在', 'en-US': 'The username is already taken' },
  LAST_ADMIN: { code: 41011, http: 400, 'zh-CN': '不能停用或降级最后一个管理员', 'en-US': 'The last active administrator cannot be disabled or demoted' },
  SELF_CHANGE: { code: 41012, http: 400, 'zh-CN': '不能停用或降级自己的账号', 'en-US': 'You cannot disable or demote your own account' },
  SAME_PASSWORD: { code: 41013, http: 400, 'zh-CN': '新密码不能与原密码相同', 'en-US': 'The new password must differ from the current one' },
  BACK_TO_PENDING: { code: 41020, http: 400, 'zh-CN': '已审批的账号不能改回待审批状态', 'en-US': 'An approved account cannot be set back to pending' },
  NO_EMAIL: { code: 41021, http: 400, 'zh-CN': '该账号没有邮箱地址，无法发送邮件', 'en-US': 'The account has no e-mail address to send the mail to' },
} as const satisfies Record<string, ErrorDef>;

export type ErrorKey = keyof typeof errors;
export type ErrorParams = Record<string, string | number>;

export function errorMessage(key: ErrorKey, locale: Locale = defaultLocale, params: ErrorParams = {}): string {
  const template: string = errors[key][locale];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

const byCode = new Map<number, ErrorKey>(Object.entries(errors).map(([key, def]) => [def.code, key as ErrorKey]));
export function errorKeyOf(code: number): ErrorKey | undefined {
  return byCode.get(code);
}
