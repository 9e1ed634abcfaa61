import type { AppTicket, TicketCategory, TaskRun } from '@mowerline/contract';
import { pick, type Rng } from './rng.ts';
import { appScreenshotPng } from './screenshot.ts';

/**
 * What an owner writes to support from the app, in their language. Most feedback is about a fault
 * their own mower really raised (a run that stopped with a fault code); the rest is about the app,
 * the account, or an idea.
 */
type Locale = 'zh-CN' | 'en-US';

const FAULT_TEXT: Record<Locale, { title: (code: string) => string; body: (sn: string, code: string, when: string) => string }> = {
  'en-US': {
    title: (code) => `Mower stopped: ${code}`,
    body: (sn, code, when) => `My mower ${sn} stopped in the middle of the lawn at ${when} and the app shows ${code}. I restarted it but I am worried it happens again. Screenshot attached.`,
  },
  'zh-CN': {
    title: (code) => `割草机停机：${code}`,
    body: (sn, code, when) => `我的割草机 ${sn} 在 ${when} 停在草坪中间，App 显示 ${code}。我已经重启了，但担心还会再发生。附上截图。`,
  },
};

const OTHER_TEXT: Record<Locale, Array<{ category: Exclude<TicketCategory, 'device'>; title: string; body: string }>> = {
  'en-US': [
    { category: 'app', title: 'Map does not load on my phone', body: 'The garden map stays grey for a minute after I open the app.' },
    { category: 'account', title: 'Cannot change my e-mail address', body: 'I moved to a new e-mail provider. How do I change the address of my account?' },
    { category: 'suggestion', title: 'Please add a holiday mode', body: 'It would be great to pause all schedules for two weeks with one switch.' },
    { category: 'other', title: 'Where can I buy new blades?', body: 'The blades look worn. Which ones fit my model?' },
  ],
  'zh-CN': [
    { category: 'app', title: '手机上地图加载不出来', body: '打开 App 后花园地图要灰一分钟才显示。' },
    { category: 'account', title: '无法修改邮箱', body: '我换了邮箱服务商，怎么修改账号的邮箱？' },
    { category: 'suggestion', title: '希望增加假期模式', body: '希望能一键暂停所有计划两周。' },
    { category: 'other', title: '在哪里买新刀片？', body: '刀片已经磨损，哪种适合我的型号？' },
  ],
};

const FOLLOW_UPS: Record<Locale, string[]> = {
  'en-US': ['Thanks, I tried that. It happened once more this morning.', 'Done, it mows again. Thank you!', 'I cleaned the blades as you said; I will keep an eye on it.'],
  'zh-CN': ['谢谢，我试过了，今天早上又出现了一次。', '好了，已经能正常割草了，谢谢！', '已按你说的清理了刀片，我再观察一下。'],
};

const RATING_COMMENTS: Record<Locale, string[]> = {
  'en-US': ['Quick and helpful.', 'Solved, thanks.', 'Took a while, but it works now.', ''],
  'zh-CN': ['回复很快，很有帮助。', '问题解决了，谢谢。', '等了一段时间，不过现在好了。', ''],
};

export interface NewFeedback {
  category: TicketCategory;
  title: string;
  description: string;
  sn?: string;
  screenshot?: Buffer;
}

/** Feedback about a run that ended or paused with a fault, with a screenshot most of the time. */
export function feedbackAboutFault(rng: Rng, locale: Locale, run: Pick<TaskRun, 'sn' | 'faultCode' | 'startedAt'>): NewFeedback {
  const code = run.faultCode ?? 'UNKNOWN';
  const when = new Date(run.startedAt).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });
  const text = FAULT_TEXT[locale];
  return { category: 'device', sn: run.sn, title: text.title(code), description: text.body(run.sn, code, when), screenshot: rng() < 0.7 ? appScreenshotPng(rng) : undefined };
}

export function feedbackAboutSomethingElse(rng: Rng, locale: Locale): NewFeedback {
  const t = pick(rng, OTHER_TEXT[locale]);
  return { ...t, description: t.body, screenshot: t.category === 'app' ? appScreenshotPng(rng, { alert: false }) : undefined };
}

/** What an owner does next with one of their tickets, if anything. */
export type FeedbackFollowUp = { kind: 'reply'; body: string } | { kind: 'rate'; score: number; comment: string } | { kind: 'none' };

export function followUp(rng: Rng, locale: Locale, ticket: Pick<AppTicket, 'status' | 'rating' | 'canRate'>): FeedbackFollowUp {
  // Support asked something: the owner answers.
  if (ticket.status === 'pending_customer') return { kind: 'reply', body: pick(rng, FOLLOW_UPS[locale]) };
  // Mostly satisfied customers; now and then an unhappy one.
  if (ticket.canRate && !ticket.rating) {
    const r = rng();
    return { kind: 'rate', score: r < 0.6 ? 5 : r < 0.85 ? 4 : r < 0.95 ? 3 : 1, comment: pick(rng, RATING_COMMENTS[locale]) };
  }
  return { kind: 'none' };
}
