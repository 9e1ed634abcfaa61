import type { EmailTemplate, Locale } from '@mowerline/contract';

export interface EmailParams {
  'password-reset': { name: string; link: string; minutes: number };
  'staff-invite': { name: string; username: string; link: string; minutes: number };
  'account-approved': { name: string; link: string };
  'account-request': { name: string; username: string; link: string };
  'app-verify': { name: string; code: string; minutes: number };
  'app-password-reset': { name: string; code: string; minutes: number };
  'app-device-shared': { name: string; owner: string; sn: string };
  'app-register-existing': { name: string };
  'app-session-ended': { name: string; device: string; at: string };
  'ticket-reply': { name: string; number: number; title: string; agent: string; body: string };
  'factor-added': { name: string; factor: string; link: string };
  'factor-removed': { name: string; factor: string; link: string };
  'factors-reset': { name: string; factor: string; link: string };
  'webhook-disabled': { url: string; since: string; link: string };
}

interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Renderer<T extends EmailTemplate> = (p: EmailParams[T]) => { subject: string; lines: string[]; link?: string };

const templates: { [T in EmailTemplate]: Record<Locale, Renderer<T>> } = {
  'password-reset': {
    'zh-CN': (p) => ({ subject: 'Mowerline 密码重置', lines: [`${p.name}，您好：`, `请在 ${p.minutes} 分钟内打开以下链接重置密码，链接只能使用一次。`, '如果不是您本人操作，请忽略此邮件。'], link: p.link }),
    'en-US': (p) => ({ subject: 'Reset your Mowerline password', lines: [`Hello ${p.name},`, `Open the link below within ${p.minutes} minutes to choose a new password. It works once.`, 'If you did not ask for this, ignore this mail.'], link: p.link }),
  },
  'staff-invite': {
    'zh-CN': (p) => ({ subject: '欢迎加入 Mowerline 运营后台', lines: [`${p.name}，您好：`, `管理员为您创建了账号 ${p.username}。请在 ${p.minutes} 分钟内打开以下链接设置密码。`], link: p.link }),
    'en-US': (p) => ({ subject: 'Welcome to the Mowerline console', lines: [`Hello ${p.name},`, `An administrator created the account ${p.username} for you. Open the link below within ${p.minutes} minutes to set your password.`], link: p.link }),
  },
  'account-approved': {
    'zh-CN': (p) => ({ subject: '您的 Mowerline 账号已开通', lines: [`${p.name}，您好：`, '您的账号申请已通过审批，现在可以登录。'], link: p.link }),
    'en-US': (p) => ({ subject: 'Your Mowerline account is approved', lines: [`Hello ${p.name},`, 'Your account request was approved: you can sign in now.'], link: p.link }),
  },
  'account-request': {
    'zh-CN': (p) => ({ subject: '新的账号申请待审批', lines: [`${p.name}（${p.username}）申请了运营后台账号，请审批。`], link: p.link }),
    'en-US': (p) => ({ subject: 'A new account request is waiting', lines: [`${p.name} (${p.username}) asked for a console account. Please review it.`], link: p.link }),
  },
  'app-verify': {
    'zh-CN': (p) => ({ subject: `Mowerline 验证码 ${p.code}`, lines: [`${p.name}，您好：`, `您的邮箱验证码是 ${p.code}，${p.minutes} 分钟内有效。`, '如果不是您本人注册，请忽略此邮件。'] }),
    'en-US': (p) => ({ subject: `Your Mowerline code is ${p.code}`, lines: [`Hello ${p.name},`, `Your verification code is ${p.code}. It is valid for ${p.minutes} minutes.`, 'If you did not sign up, ignore this mail.'] }),
  },
  'app-password-reset': {
    'zh-CN': (p) => ({ subject: 'Mowerline 密码重置验证码', lines: [`${p.name}，您好：`, `您的密码重置验证码是 ${p.code}，${p.minutes} 分钟内有效，只能使用一次。`, '如果不是您本人操作，请忽略此邮件。'] }),
    'en-US': (p) => ({ subject: 'Reset your Mowerline password', lines: [`Hello ${p.name},`, `Your password reset code is ${p.code}. It is valid for ${p.minutes} minutes and works once.`, 'If you did not ask for this, ignore this mail.'] }),
  },
  'app-device-shared': {
    'zh-CN': (p) => ({ subject: `${p.owner} 与您共享了割草机`, lines: [`${p.name}，您好：`, `${p.owner} 与您共享了割草机 ${p.sn}，打开 Mowerline 应用即可查看。`] }),
    'en-US': (p) => ({ subject: `${p.owner} shared a mower with you`, lines: [`Hello ${p.name},`, `${p.owner} shared the mower ${p.sn} with you. Open the Mowerline app to see it.`] }),
  },
  // Someone signed up with this address; the answer they got looked like a new account's.
  'app-register-existing': {
    'zh-CN': (p) => ({
      subject: '有人尝试用您的邮箱注册 Mowerline',
      lines: [`${p.name}，您好：`, '刚刚有人尝试用此邮箱注册新的 Mowerline 账号。您的账号已存在，没有任何改动。', '如果是您本人，请直接登录；忘记密码可在应用中重置。如果不是您本人，请忽略此邮件。'],
    }),
    'en-US': (p) => ({
      subject: 'Someone tried to sign up to Mowerline with your e-mail',
      lines: [`Hello ${p.name},`, 'Someone just tried to create a new Mowerline account with this e-mail. Your account exists already and nothing was changed.', 'If that was you, sign in, or reset your password in the app. If not, ignore this mail.'],
    }),
  },
  // A refresh token was used twice: one of the two users of the session was not the app.
  'app-session-ended': {
    'zh-CN': (p) => ({
      subject: 'Mowerline 已为安全起见结束您的一个登录会话',
      lines: [`${p.name}，您好：`, `您在 ${p.device} 上的登录会话（${p.at}）的登录凭证被重复使用，可能已被他人复制。为安全起见，该会话已在所有设备上结束。`, '请重新登录。如果您怀疑账号被盗用，请立即修改密码。'],
    }),
    'en-US': (p) => ({
      subject: 'Mowerline ended one of your sessions to keep your account safe',
      lines: [`Hello ${p.name},`, `The sign-in key of your session on ${p.device} (${p.at}) was used twice, so someone may have copied it. The session was ended everywhere.`, 'Sign in again. If you think someone else uses your account, change your password now.'],
    }),
  },
  // The agent's text is the mail's body; answering the mail (its Reply-To) adds to the ticket.
  'ticket-reply': {
    'zh-CN': (p) => ({
      subject: `[#${p.number}] ${p.title}`,
      lines: [`${p.name}，您好：`, `${p.agent} 回复了您的反馈 #${p.number}：`, ...p.body.split('\n'), '', '直接回复此邮件即可继续对话，也可以在 Mowerline 应用中查看。'],
    }),
    'en-US': (p) => ({
      subject: `[#${p.number}] ${p.title}`,
      lines: [`Hello ${p.name},`, `${p.agent} answered your feedback #${p.number}:`, ...p.body.split('\n'), '', 'Answer this mail to continue the conversation, or open the Mowerline app.'],
    }),
  },
  'factor-added': {
    'zh-CN': (p) => ({ subject: 'Mowerline 账号已添加第二验证因素', lines: [`${p.name}，您好：`, `您的账号刚刚添加了第二验证因素“${p.factor}”。`, '如果不是您本人操作，请立即联系管理员。'], link: p.link }),
    'en-US': (p) => ({ subject: 'A second factor was added to your Mowerline account', lines: [`Hello ${p.name},`, `The second factor "${p.factor}" was just added to your account.`, 'If this was not you, contact an administrator at once.'], link: p.link }),
  },
  'factor-removed': {
    'zh-CN': (p) => ({ subject: 'Mowerline 账号已移除第二验证因素', lines: [`${p.name}，您好：`, `您的账号刚刚移除了第二验证因素“${p.factor}”。`, '如果不是您本人操作，请立即联系管理员。'], link: p.link }),
    'en-US': (p) => ({ subject: 'A second factor was removed from your Mowerline account', lines: [`Hello ${p.name},`, `The second factor "${p.factor}" was just removed from your account.`, 'If this was not you, contact an administrator at once.'], link: p.link }),
  },
  'factors-reset': {
    'zh-CN': (p) => ({ subject: 'Mowerline 账号的第二验证因素已被重置', lines: [`${p.name}，您好：`, '管理员重置了您账号的全部第二验证因素和恢复码。请在下次登录后重新绑定。', '如果您没有请求此操作，请立即联系管理员。'], link: p.link }),
    'en-US': (p) => ({ subject: 'The second factors of your Mowerline account were reset', lines: [`Hello ${p.name},`, 'An administrator removed all second factors and recovery codes of your account. Enrol a new one after your next sign-in.', 'If you did not ask for this, contact an administrator at once.'], link: p.link }),
  },
  'webhook-disabled': {
    'zh-CN': (p) => ({ subject: 'Mowerline Webhook 已停用', lines: [`Webhook ${p.url} 自 ${p.since} 起持续投递失败，已被自动停用。`, '请检查接收端，然后在集成页面重新启用；未送达的事件会在启用后继续投递。'], link: p.link }),
    'en-US': (p) => ({ subject: 'A Mowerline webhook was disabled', lines: [`The webhook ${p.url} has failed every delivery since ${p.since} and was disabled.`, 'Check the receiver, then enable it again on the integrations page; undelivered events are sent once it is enabled.'], link: p.link }),
  },
};

export function renderEmail<T extends EmailTemplate>(template: T, params: EmailParams[T], locale: Locale): Rendered {
  const { subject, lines, link } = templates[template][locale](params);
  const text = [...lines, ...(link ? ['', link] : [])].join('\n');
  const html = [
    ...lines.map((line) => `<p>${escape(line)}</p>`),
    ...(link ? [`<p><a href="${escape(link)}">${escape(link)}</a></p>`] : []),
  ].join('\n');
  return { subject, text, html };
}
