import { eventCatalogue, messageKinds, roleDescriptions, roles, type Locale, type Role } from '@mowerline/contract';

export type MessageKind = (typeof messageKinds)[keyof typeof messageKinds];

type Text = (p: Record<string, string>) => { title: string; subTitle: string; content: string };

/**
 * Stored params keep machine values (an ISO time, a role key, a fault code) so each reader gets
 * them in their own language and time zone; this turns them into words before the texts use them.
 */
function readable(p: Record<string, string>, locale: Locale, timeZone: string): Record<string, string> {
  const out = { ...p };
  if (p.at) {
    const at = new Date(p.at);
    if (!Number.isNaN(at.getTime())) {
      out.at = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
    }
  }
  if (roles.includes(p.role as Role)) out.role = roleDescriptions[p.role as Role].name[locale];
  if (p.code) out.fault = eventCatalogue[p.code]?.[locale] ?? p.code;
  return out;
}

const severityZh: Record<string, string> = { critical: '严重', major: '重要', minor: '次要', warning: '警告' };

/** How each kind of message reads in each language; params come from the event that made it. */
const texts: Record<MessageKind, Record<Locale, Text>> = {
  [messageKinds.accountCreated]: {
    'zh-CN': (p) => ({ title: '新员工账号', subTitle: p.username ?? '', content: `${p.actor ?? ''} 创建了账号 ${p.username ?? ''}（${p.role ?? ''}）。` }),
    'en-US': (p) => ({ title: 'New staff account', subTitle: p.username ?? '', content: `${p.actor ?? ''} created the account ${p.username ?? ''} (${p.role ?? ''}).` }),
  },
  [messageKinds.passwordChanged]: {
    'zh-CN': (p) => ({ title: '密码已修改', subTitle: p.ip ?? '', content: `您的密码已于 ${p.at ?? ''} 修改，其他设备上的登录已全部退出。如非本人操作，请立即联系管理员。` }),
    'en-US': (p) => ({ title: 'Password changed', subTitle: p.ip ?? '', content: `Your password was changed at ${p.at ?? ''} and every other session was signed out. If this was not you, contact an administrator now.` }),
  },
  // `more` counts earlier requests folded into this todo while it was unread.
  [messageKinds.accountRequest]: {
    'zh-CN': (p) => ({
      title: '账号申请待审批',
      subTitle: p.username ?? '',
      content: `${p.name ?? ''}（${p.username ?? ''}）申请了账号：${p.reason || '未填写理由'}${p.more && p.more !== '0' ? `（另有 ${p.more} 个账号申请待审批）` : ''}`,
    }),
    'en-US': (p) => ({
      title: 'Account request to approve',
      subTitle: p.username ?? '',
      content: `${p.name ?? ''} (${p.username ?? ''}) asked for an account: ${p.reason || 'no reason given'}${p.more && p.more !== '0' ? ` (and ${p.more} more account requests to approve)` : ''}`,
    }),
  },
  [messageKinds.accountApproved]: {
    'zh-CN': (p) => ({ title: '账号申请已通过', subTitle: p.username ?? '', content: `${p.actor ?? ''} 通过了 ${p.username ?? ''} 的账号申请。` }),
    'en-US': (p) => ({ title: 'Account request approved', subTitle: p.username ?? '', content: `${p.actor ?? ''} approved the account request of ${p.username ?? ''}.` }),
  },
  // `more` counts further critical events folded into this message during a burst.
  [messageKinds.deviceCriticalEvent]: {
    'zh-CN': (p) => ({
      title: '设备严重故障',
      subTitle: `${p.sn ?? ''} · ${p.code ?? ''}`,
      content: `设备 ${p.sn ?? ''} 于 ${p.at ?? ''} 报告严重故障「${p.fault ?? ''}」（${p.code ?? ''}）${p.message ? `，设备消息：${p.message}` : ''}${p.more && p.more !== '0' ? `（另有 ${p.more} 条严重故障）` : ''}`,
    }),
    'en-US': (p) => ({
      title: 'Critical device fault',
      subTitle: `${p.sn ?? ''} · ${p.code ?? ''}`,
      content: `Device ${p.sn ?? ''} reported the critical fault "${p.fault ?? ''}" (${p.code ?? ''}) at ${p.at ?? ''}${p.message ? `; device message: ${p.message}` : ''}${p.more && p.more !== '0' ? ` (and ${p.more} more critical faults)` : ''}`,
    }),
  },
  // `count` is how many events of this severity the message folds (one member, one minute).
  [messageKinds.deviceEvents]: {
    'zh-CN': (p) => ({
      title: `${p.count ?? '1'} 条新的${severityZh[p.severity ?? ''] ?? p.severity ?? ''}事件`,
      subTitle: `${p.sn ?? ''} · ${p.code ?? ''}`,
      content: `最新：设备 ${p.sn ?? ''} 于 ${p.at ?? ''} 报告「${p.fault ?? ''}」（${p.code ?? ''}）${p.message ? `，设备消息：${p.message}` : ''}`,
    }),
    'en-US': (p) => ({
      title: `${p.count ?? '1'} new ${p.severity ?? ''} event${p.count === '1' ? '' : 's'}`,
      subTitle: `${p.sn ?? ''} · ${p.code ?? ''}`,
      content: `Latest: device ${p.sn ?? ''} reported "${p.fault ?? ''}" (${p.code ?? ''}) at ${p.at ?? ''}${p.message ? `; device message: ${p.message}` : ''}`,
    }),
  },
  // `rate` is the messages per second observed, `limit` the device's telemetry rate; `more` counts further flags folded in.
  [messageKinds.deviceFlagged]: {
    'zh-CN': (p) => ({
      title: '设备消息超限已断开',
      subTitle: p.sn ?? '',
      content: `设备 ${p.sn ?? ''} 持续以约 ${p.rate ?? ''} 条/秒发送消息（限额 ${p.limit ?? ''} 条/秒的十倍以上），已于 ${p.at ?? ''} 断开连接并标记。设备可重新连接，但仍受限额约束；请检查设备后在设备详情中清除标记。${p.more && p.more !== '0' ? `（另有 ${p.more} 台设备被标记）` : ''}`,
    }),
    'en-US': (p) => ({
      title: 'Device over its message limits disconnected',
      subTitle: p.sn ?? '',
      content: `Device ${p.sn ?? ''} kept sending about ${p.rate ?? ''} messages/s (over ten times its limit of ${p.limit ?? ''}/s) and was disconnected and flagged at ${p.at ?? ''}. It may reconnect and stays limited; check the device, then clear the flag on its detail.${p.more && p.more !== '0' ? ` (and ${p.more} more devices flagged)` : ''}`,
    }),
  },
  [messageKinds.otaCampaignPaused]: {
    'zh-CN': (p) => ({
      title: '升级任务已自动暂停',
      subTitle: p.name ?? '',
      content: `升级任务「${p.name ?? ''}」（#${p.id ?? ''}）失败率达到阈值：${p.finished ?? ''} 台已完成中 ${p.failed ?? ''} 台失败，已暂停推送。请查看升级日志后继续或取消。`,
    }),
    'en-US': (p) => ({
      title: 'Update campaign paused',
      subTitle: p.name ?? '',
      content: `Campaign "${p.name ?? ''}" (#${p.id ?? ''}) reached its failure threshold: ${p.failed ?? ''} of ${p.finished ?? ''} finished devices failed, so the rollout was paused. Read the upgrade log, then resume or cancel.`,
    }),
  },
  // `more` counts further new tickets folded into this message while it was unread.
  [messageKinds.ticketNew]: {
    'zh-CN': (p) => ({
      title: '新的反馈工单',
      subTitle: `#${p.number ?? ''} · ${p.category ?? ''}`,
      content: `${p.user ?? ''} 提交了反馈 #${p.number ?? ''}「${p.title ?? ''}」${p.sn ? `（割草机 ${p.sn}）` : ''}${p.more && p.more !== '0' ? `（另有 ${p.more} 个新工单）` : ''}`,
    }),
    'en-US': (p) => ({
      title: 'New feedback ticket',
      subTitle: `#${p.number ?? ''} · ${p.category ?? ''}`,
      content: `${p.user ?? ''} filed #${p.number ?? ''} "${p.title ?? ''}"${p.sn ? ` (mower ${p.sn})` : ''}${p.more && p.more !== '0' ? ` (and ${p.more} more new tickets)` : ''}`,
    }),
  },
  [messageKinds.ticketCustomerReply]: {
    'zh-CN': (p) => ({ title: '客户回复了工单', subTitle: `#${p.number ?? ''}`, content: `${p.user ?? ''} 回复了工单 #${p.number ?? ''}「${p.title ?? ''}」。` }),
    'en-US': (p) => ({ title: 'Customer answered a ticket', subTitle: `#${p.number ?? ''}`, content: `${p.user ?? ''} answered ticket #${p.number ?? ''} "${p.title ?? ''}".` }),
  },
  [messageKinds.webhookDisabled]: {
    'zh-CN': (p) => ({ title: 'Webhook 已停用', subTitle: p.url ?? '', content: `Webhook ${p.url ?? ''} 连续三天投递失败，已自动停用。请检查接收端后在集成页面重新启用。` }),
    'en-US': (p) => ({ title: 'Webhook disabled', subTitle: p.url ?? '', content: `The webhook ${p.url ?? ''} failed for three days in a row and was disabled. Check the receiver, then enable it again on the integrations page.` }),
  },
};

export function renderMessage(kind: number, params: Record<string, string>, locale: Locale, timeZone = 'UTC') {
  const text = texts[kind as MessageKind];
  return text ? text[locale](readable(params, locale, timeZone)) : { title: `#${kind}`, subTitle: '', content: '' };
}
