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
  /** The health check's answer while the database does not answer; its data is the health report. */
  DATABASE_UNAVAILABLE: { code: 50003, http: 503, 'zh-CN': '数据库暂不可用', 'en-US': 'The database is unavailable' },
  NOT_SIGNED_IN: { code: 50008, http: 401, 'zh-CN': '未登录或登录已过期', 'en-US': 'Not signed in or the session has expired' },
  VALIDATION: { code: 40000, http: 400, 'zh-CN': '请求参数错误：{detail}', 'en-US': 'Invalid request: {detail}' },
  UNSTORABLE_TEXT: { code: 40001, http: 400, 'zh-CN': '请求参数错误：{field} 含有无法保存的字符（NUL 或不成对的代理字符）', 'en-US': 'Invalid request: {field} contains a character that cannot be stored (NUL or an unpaired surrogate)' },
  /** Arrays and objects nested deeper than MAX_JSON_DEPTH: refused before the body is parsed. */
  JSON_TOO_DEEP: { code: 40002, http: 400, 'zh-CN': '请求参数错误：JSON 嵌套超过 {max} 层', 'en-US': 'Invalid request: the JSON nests deeper than {max} levels' },
  FORBIDDEN: { code: 40003, http: 403, 'zh-CN': '没有权限执行此操作', 'en-US': 'You do not have permission to do this' },
  NOT_FOUND: { code: 40004, http: 404, 'zh-CN': '资源不存在', 'en-US': 'Not found' },
  CONFLICT: { code: 40009, http: 409, 'zh-CN': '数据冲突，请刷新后重试', 'en-US': 'Conflict, refresh and try again' },
  BODY_TOO_LARGE: { code: 40013, http: 413, 'zh-CN': '请求体过大', 'en-US': 'Request body too large' },
  /**
   * The request line (path and query string) and headers together past Node's 16 KiB limit: refused
   * before the request is read, so in the default language (Accept-Language is among the unread).
   */
  HEADERS_TOO_LARGE: { code: 40031, http: 431, 'zh-CN': '请求地址或请求头过长（合计不超过 16 KB）', 'en-US': 'The request URL or headers are too long (16 KB at most in all)' },
  UNSUPPORTED_MEDIA: { code: 40015, http: 415, 'zh-CN': '不支持的请求格式', 'en-US': 'Unsupported content type' },
  RATE_LIMITED: { code: 40029, http: 429, 'zh-CN': '请求过于频繁，请稍后再试', 'en-US': 'Too many requests, try again later' },
  LOGIN_FAILED: { code: 41001, http: 400, 'zh-CN': '用户名或密码错误', 'en-US': 'Wrong username or password' },
  CAPTCHA_REQUIRED: { code: 41002, http: 400, 'zh-CN': '请先完成人机验证', 'en-US': 'Complete the verification first' },
  CAPTCHA_INVALID: { code: 41003, http: 400, 'zh-CN': '人机验证无效或已过期，请重新验证', 'en-US': 'The verification is invalid or has expired, verify again' },
  ACCOUNT_LOCKED: { code: 41004, http: 400, 'zh-CN': '登录失败次数过多，账号已临时锁定，请 {minutes} 分钟后再试', 'en-US': 'Too many failed sign-ins: the account is locked, try again in {minutes} minutes' },
  ACCOUNT_PENDING: { code: 41005, http: 400, 'zh-CN': '账号正在等待管理员审批', 'en-US': 'The account is waiting for an administrator to approve it' },
  ACCOUNT_DISABLED: { code: 41006, http: 400, 'zh-CN': '账号已停用，请联系管理员', 'en-US': 'The account is disabled, contact an administrator' },
  WEAK_PASSWORD: { code: 41007, http: 400, 'zh-CN': '密码不符合要求：至少 8 位，且包含小写字母、大写字母、数字、符号中的三类，不能包含用户名', 'en-US': 'The password does not meet the policy: at least 8 characters with three of lower case, upper case, digits and symbols, and not containing the username' },
  WRONG_OLD_PASSWORD: { code: 41008, http: 400, 'zh-CN': '原密码错误', 'en-US': 'The current password is wrong' },
  RESET_TOKEN_INVALID: { code: 41009, http: 400, 'zh-CN': '重置链接无效或已过期', 'en-US': 'The reset link is invalid or has expired' },
  USERNAME_TAKEN: { code: 41010, http: 409, 'zh-CN': '用户名已存在', 'en-US': 'The username is already taken' },
  LAST_ADMIN: { code: 41011, http: 400, 'zh-CN': '不能停用或降级最后一个管理员', 'en-US': 'The last active administrator cannot be disabled or demoted' },
  SELF_CHANGE: { code: 41012, http: 400, 'zh-CN': '不能停用或降级自己的账号', 'en-US': 'You cannot disable or demote your own account' },
  SECOND_FACTOR_REQUIRED: { code: 41040, http: 400, 'zh-CN': '需要第二步验证：请输入验证器应用中的验证码或恢复码', 'en-US': 'Second factor required: enter the code from your authenticator app or a recovery code' },
  SECOND_FACTOR_INVALID: { code: 41041, http: 400, 'zh-CN': '验证码或恢复码错误', 'en-US': 'The code or recovery code is wrong' },
  SECOND_FACTOR_EXPIRED: { code: 41042, http: 400, 'zh-CN': '第二步验证已过期，请重新输入密码登录', 'en-US': 'The second step has expired: sign in with your password again' },
  TWO_FACTOR_ENROL_REQUIRED: { code: 41043, http: 403, 'zh-CN': '请先在个人中心绑定第二验证因素', 'en-US': 'Enrol a second factor first (user center)' },
  STEP_UP_REQUIRED: { code: 41044, http: 403, 'zh-CN': '此操作需要再次验证身份', 'en-US': 'Confirm it is you before this action' },
  FACTOR_NOT_FOUND: { code: 41045, http: 404, 'zh-CN': '验证因素不存在', 'en-US': 'Second factor not found' },
  STEP_UP_INVALID: { code: 41046, http: 400, 'zh-CN': '验证失败：验证码、恢复码或密码错误', 'en-US': 'Confirmation failed: wrong code, recovery code or password' },
  MODEL_NOT_FOUND: { code: 42001, http: 404, 'zh-CN': '产品型号不存在', 'en-US': 'Product model not found' },
  MODEL_CODE_TAKEN: { code: 42002, http: 409, 'zh-CN': '产品型号编码已存在', 'en-US': 'The product model code is already taken' },
  SN_NOT_FOUND: { code: 42003, http: 404, 'zh-CN': '序列号 {sn} 未注册', 'en-US': 'Serial number {sn} is not registered' },
  SN_EXISTS: { code: 42004, http: 409, 'zh-CN': '序列号 {sn} 已注册', 'en-US': 'Serial number {sn} is already registered' },
  SN_IMPORT_REJECTED: { code: 42005, http: 400, 'zh-CN': '{count} 行数据有误，未导入任何序列号', 'en-US': '{count} rows were rejected; nothing was imported' },
  SN_IMPORT_EMPTY: { code: 42006, http: 400, 'zh-CN': '导入文件需要表头行（含 sn 与 model 列）和至少一行数据', 'en-US': 'The import file needs a header row (with sn and model columns) and at least one data row' },
  SN_IMPORT_TOO_LARGE: { code: 42007, http: 400, 'zh-CN': '单次最多导入 {max} 行', 'en-US': 'At most {max} rows per import' },
  DEVICE_OFFLINE: { code: 42008, http: 409, 'zh-CN': '设备 {sn} 不在线', 'en-US': 'Device {sn} is offline' },
  DEVICE_COMMAND_TIMEOUT: { code: 42009, http: 504, 'zh-CN': '设备 {sn} 在 {timeoutMs} 毫秒内未响应', 'en-US': 'Device {sn} did not answer within {timeoutMs} ms' },
  DEVICE_COMMAND_FAILED: { code: 42010, http: 502, 'zh-CN': '设备执行命令失败：{detail}', 'en-US': 'The device could not run the command: {detail}' },
  INVALID_CURSOR: { code: 42011, http: 400, 'zh-CN': '分页游标无效，请从第一页重新查询', 'en-US': 'Invalid page cursor: start again from the first page' },
  GATEWAY_UNAVAILABLE: { code: 42012, http: 503, 'zh-CN': '设备网关暂不可用', 'en-US': 'The device gateway is unavailable' },
  SAME_PASSWORD: { code: 41013, http: 400, 'zh-CN': '新密码不能与原密码相同', 'en-US': 'The new password must differ from the current one' },
  BACK_TO_PENDING: { code: 41020, http: 400, 'zh-CN': '已审批的账号不能改回待审批状态', 'en-US': 'An approved account cannot be set back to pending' },
  SHELL_DEVICE_LIMIT: { code: 45001, http: 409, 'zh-CN': '设备 {sn} 的终端会话已达上限（{max} 个）', 'en-US': 'Device {sn} already has the maximum of {max} shell sessions' },
  SHELL_USER_LIMIT: { code: 45002, http: 409, 'zh-CN': '您同时打开的终端会话已达上限（{max} 个）', 'en-US': 'You already have the maximum of {max} open shell sessions' },
  SHELL_REFUSED: { code: 45003, http: 409, 'zh-CN': '设备拒绝打开终端：{detail}', 'en-US': 'The device refused the shell: {detail}' },
  SHELL_AUTH_REQUIRED: { code: 45004, http: 401, 'zh-CN': '终端连接需要先登录验证', 'en-US': 'The shell connection must authenticate first' },
  SHELL_SESSION_CLOSED: { code: 45005, http: 409, 'zh-CN': '终端会话已结束', 'en-US': 'The shell session has already ended' },
  SHELL_BAD_MESSAGE: { code: 45006, http: 400, 'zh-CN': '终端消息格式错误', 'en-US': 'Malformed shell message' },
  FORM_LIMITED: { code: 41030, http: 429, 'zh-CN': '来自此地址或针对此邮箱的请求过多，请稍后再试', 'en-US': 'Too many requests from this address or for this e-mail, try again later' },
  NO_EMAIL: { code: 41021, http: 400, 'zh-CN': '该账号没有邮箱地址，无法发送邮件', 'en-US': 'The account has no e-mail address to send the mail to' },
  ARTIFACT_NOT_FOUND: { code: 43001, http: 404, 'zh-CN': '固件或语音包不存在', 'en-US': 'Firmware or voice pack not found' },
  ARTIFACT_VERSION_TAKEN: { code: 43002, http: 409, 'zh-CN': '该型号已有版本 {version}', 'en-US': 'Version {version} already exists for this model' },
  ARTIFACT_TOO_LARGE: { code: 43003, http: 413, 'zh-CN': '文件超过 {maxMb} MB 上限，未保存', 'en-US': 'The file exceeds the {maxMb} MB limit; nothing was stored' },
  ARTIFACT_BAD_TYPE: { code: 43004, http: 415, 'zh-CN': '文件类型不支持（允许：{allowed}），未保存', 'en-US': 'Unsupported file type (allowed: {allowed}); nothing was stored' },
  ARTIFACT_FILE_MISSING: { code: 43005, http: 400, 'zh-CN': '请先填写版本信息，再附上文件（字段 file）', 'en-US': 'Send the version fields first, then the file (field file)' },
  ARTIFACT_STATUS: { code: 43006, http: 400, 'zh-CN': '状态不能从 {from} 改为 {to}', 'en-US': 'The status cannot change from {from} to {to}' },
  ARTIFACT_LANGUAGE_REQUIRED: { code: 43017, http: 400, 'zh-CN': '请选择语音包的语言', 'en-US': 'Choose the language of the voice pack' },
  ARTIFACT_NOT_RELEASED: { code: 43007, http: 400, 'zh-CN': '只有已发布的版本才能推送', 'en-US': 'Only a released version can be rolled out' },
  DOWNLOAD_LINK_INVALID: { code: 43008, http: 403, 'zh-CN': '下载链接无效或已过期', 'en-US': 'The download link is invalid or has expired' },
  CAMPAIGN_NOT_FOUND: { code: 43009, http: 404, 'zh-CN': '升级任务不存在', 'en-US': 'Update campaign not found' },
  CAMPAIGN_STATE: { code: 43010, http: 400, 'zh-CN': '升级任务当前为 {status}，不能{action}', 'en-US': 'The campaign is {status} and cannot {action}' },
  CAMPAIGN_NO_TARGETS: { code: 43011, http: 400, 'zh-CN': '没有符合条件的设备', 'en-US': 'No device matches the target' },
  CAMPAIGN_BAD_SNS: { code: 43012, http: 400, 'zh-CN': '{count} 个序列号未注册或不属于该型号，未创建任务', 'en-US': '{count} serial numbers are unknown or of another model; nothing was created' },
  APP_VERSION_NOT_FOUND: { code: 43013, http: 404, 'zh-CN': '应用版本不存在', 'en-US': 'App version not found' },
  APP_VERSION_WITHDRAWN: { code: 43016, http: 409, 'zh-CN': '该版本已撤回', 'en-US': 'This release has already been withdrawn' },
  APP_VERSION_TAKEN: { code: 43014, http: 409, 'zh-CN': '该平台已有构建号 {build}', 'en-US': 'Build {build} already exists for this platform' },
  ARTIFACT_MIN_FROM_ABOVE: { code: 43030, http: 400, 'zh-CN': '“可升级起始版本” {minFrom} 不低于本版本 {version}，没有设备能升级到它；未保存', 'en-US': '"Upgradable from" {minFrom} is not below the version itself ({version}), so no device could ever be updated to it; nothing was stored' },
  ARTIFACT_VERSION_MALFORMED: { code: 43031, http: 400, 'zh-CN': '版本号“{value}”格式无效，应为 1.4.2 这样的语义化版本；未保存', 'en-US': 'The version "{value}" is malformed: use a semantic version such as 1.4.2; nothing was stored' },
  CAMPAIGN_VERSION_RANGE: { code: 43032, http: 400, 'zh-CN': '当前版本范围无效：起始 {min} 高于截止 {max}', 'en-US': 'Invalid current-version range: from {min} is above up to {max}' },
  RANGE_NOT_SATISFIABLE: { code: 43015, http: 416, 'zh-CN': '请求的字节范围无效', 'en-US': 'The requested byte range is not satisfiable' },
  APP_NOT_VERIFIED: { code: 44002, http: 400, 'zh-CN': '邮箱尚未验证，请输入邮件中的验证码', 'en-US': 'The e-mail is not verified yet: enter the code from the mail' },
  APP_CODE_INVALID: { code: 44003, http: 400, 'zh-CN': '验证码错误或已过期', 'en-US': 'The code is wrong or has expired' },
  APP_LOGIN_FAILED: { code: 44004, http: 400, 'zh-CN': '邮箱或密码错误', 'en-US': 'Wrong e-mail or password' },
  APP_ACCOUNT_DISABLED: { code: 44005, http: 400, 'zh-CN': '账号已被停用，请联系客服', 'en-US': 'The account is disabled, contact support' },
  APP_REFRESH_INVALID: { code: 44006, http: 401, 'zh-CN': '登录已过期，请重新登录', 'en-US': 'The session has expired, sign in again' },
  /** An app form that mails a code (register, resend-code, forgot-password): its data is `{ retryAfterSeconds }`, also sent as Retry-After. */
  APP_FORM_LIMITED: {
    code: 44008,
    http: 429,
    'zh-CN': '请求过于频繁：针对此邮箱或来自此地址的请求已达上限，请 {seconds} 秒后再试',
    'en-US': 'Too many requests for this e-mail or from this address: try again in {seconds} s',
  },
  APP_COUNTRY_UNKNOWN: { code: 44007, http: 400, 'zh-CN': '未知的国家或地区代码 {country}', 'en-US': 'Unknown country code {country}' },
  END_USER_NOT_FOUND: { code: 44010, http: 404, 'zh-CN': '用户不存在', 'en-US': 'User not found' },
  END_USER_STATE: { code: 44011, http: 409, 'zh-CN': '该用户当前状态（{status}）不允许此操作', 'en-US': 'The user is {status}: this action does not apply' },
  PAIRING_INVALID: { code: 44020, http: 400, 'zh-CN': '序列号或配对码错误', 'en-US': 'Wrong serial number or pairing code' },
  DEVICE_ALREADY_BOUND: { code: 44021, http: 409, 'zh-CN': '该割草机已绑定其他账号，请先由其主人解绑', 'en-US': 'This mower belongs to another account: its owner must unbind it first' },
  APP_DEVICE_NOT_FOUND: { code: 44022, http: 404, 'zh-CN': '您的账号下没有割草机 {sn}', 'en-US': 'You have no mower {sn}' },
  NOT_DEVICE_OWNER: { code: 44023, http: 403, 'zh-CN': '只有割草机的主人可以管理共享', 'en-US': 'Only the mower\'s owner can manage its sharing' },
  SHARE_TARGET_UNKNOWN: { code: 44024, http: 404, 'zh-CN': '没有使用该邮箱的有效账号', 'en-US': 'No active account uses this e-mail' },
  SHARE_SELF: { code: 44025, http: 400, 'zh-CN': '不能与自己共享', 'en-US': 'You cannot share with yourself' },
  TASK_SCHEDULE_NOT_FOUND: { code: 46001, http: 404, 'zh-CN': '割草计划不存在', 'en-US': 'Schedule not found' },
  TASK_SLOT_OVERLAP: { code: 46002, http: 400, 'zh-CN': '时间段重叠：{detail}', 'en-US': 'Time slots overlap: {detail}' },
  TASK_ZONE_UNKNOWN: { code: 46003, http: 400, 'zh-CN': '割草机 {sn} 没有区域 {zone}', 'en-US': 'Mower {sn} has no zone {zone}' },
  TASK_SCHEDULE_LIMIT: { code: 46004, http: 400, 'zh-CN': '每台割草机最多 {max} 个计划', 'en-US': 'At most {max} schedules per mower' },
  TASK_RUN_NOT_FOUND: { code: 46005, http: 404, 'zh-CN': '作业记录不存在', 'en-US': 'Task run not found' },
  TASK_REVISION_CONFLICT: { code: 46006, http: 409, 'zh-CN': '该计划已被修改（当前版本 {revision}），请刷新后重试', 'en-US': 'The schedule was changed elsewhere (now revision {revision}): reload and try again' },
  TASK_TIME_RANGE: { code: 46007, http: 400, 'zh-CN': '时间范围无效：结束须不早于开始，且最多 {maxDays} 天', 'en-US': 'Invalid time range: the end must not precede the start, and at most {maxDays} days' },
  TASK_COMMAND_REFUSED: { code: 46008, http: 409, 'zh-CN': '割草机拒绝执行：{detail}', 'en-US': 'The mower refused: {detail}' },
  TICKET_NOT_FOUND: { code: 47001, http: 404, 'zh-CN': '工单不存在', 'en-US': 'Ticket not found' },
  TICKET_CLOSED: { code: 47002, http: 409, 'zh-CN': '工单已关闭，不能再回复', 'en-US': 'The ticket is closed and takes no more replies' },
  TICKET_REOPEN_EXPIRED: { code: 47003, http: 409, 'zh-CN': '工单解决已超过 {days} 天，不能重新打开，请提交新的反馈', 'en-US': 'The ticket was resolved more than {days} days ago and cannot be reopened: file new feedback' },
  TICKET_RATING_NOT_ALLOWED: { code: 47004, http: 409, 'zh-CN': '只有已解决的工单才能评价', 'en-US': 'Only a resolved ticket can be rated' },
  TICKET_ATTACHMENT_TOO_LARGE: { code: 47005, http: 413, 'zh-CN': '附件 {name} 超过 {maxMb} MB 上限，未保存任何内容', 'en-US': 'Attachment {name} exceeds the {maxMb} MB limit; nothing was stored' },
  TICKET_ATTACHMENT_BAD_TYPE: { code: 47006, http: 415, 'zh-CN': '附件 {name} 的类型不支持（允许：JPG、PNG、WebP 图片，文本、ZIP、GZ 日志），未保存任何内容', 'en-US': 'Attachment {name} is of an unsupported type (allowed: JPG, PNG and WebP images, text, ZIP and GZ logs); nothing was stored' },
  TICKET_TOO_MANY_ATTACHMENTS: { code: 47007, http: 400, 'zh-CN': '最多 {max} 个附件，未保存任何内容', 'en-US': 'At most {max} attachments; nothing was stored' },
  TICKET_ATTACHMENT_NOT_FOUND: { code: 47008, http: 404, 'zh-CN': '附件不存在', 'en-US': 'Attachment not found' },
  TICKET_STATUS: { code: 47009, http: 409, 'zh-CN': '工单状态不能从 {from} 改为 {to}', 'en-US': 'The ticket status cannot change from {from} to {to}' },
  TICKET_ASSIGNEE_INVALID: { code: 47010, http: 400, 'zh-CN': '处理人不存在或已停用', 'en-US': 'The assignee does not exist or is disabled' },
  TICKET_MERGE_SELF: { code: 47011, http: 400, 'zh-CN': '工单不能合并到自身', 'en-US': 'A ticket cannot be merged into itself' },
  TICKET_MERGE_TARGET: { code: 47012, http: 409, 'zh-CN': '目标工单 {number} 已关闭、已合并或为垃圾工单，不能合并', 'en-US': 'Ticket {number} is closed, merged or spam and cannot take a merge' },
  TICKET_MERGE_OTHER_USER: { code: 47013, http: 400, 'zh-CN': '只能合并同一用户的工单', 'en-US': 'Only tickets of the same user can be merged' },
  CONTENT_NOT_FOUND: { code: 48001, http: 404, 'zh-CN': '内容不存在', 'en-US': 'Content not found' },
  CONTENT_FILE_NOT_FOUND: { code: 48002, http: 404, 'zh-CN': '文件不存在', 'en-US': 'File not found' },
  CONTENT_FILE_MISSING: { code: 48003, http: 400, 'zh-CN': '请先填写字段 kind，再附上文件（字段 file）', 'en-US': 'Send the field kind first, then the file (field file)' },
  CONTENT_FILE_TYPE: { code: 48004, http: 415, 'zh-CN': '文件类型不支持（允许：{allowed}），未保存', 'en-US': 'Unsupported file type (allowed: {allowed}); nothing was stored' },
  CONTENT_FILE_TOO_LARGE: { code: 48005, http: 413, 'zh-CN': '文件超过 {maxMb} MB 上限，未保存', 'en-US': 'The file exceeds the {maxMb} MB limit; nothing was stored' },
  CONTENT_MEDIA: {
    code: 48006,
    http: 400,
    'zh-CN': '图片帖需要一张上传的图片，视频需要上传的视频或视频链接，文章不带媒体；封面必须是图片',
    'en-US': 'An image post needs an uploaded image, a video an uploaded video or a URL, an article no media; a cover must be an image',
  },
  API_KEY_NOT_ALLOWED: {
    code: 49001,
    http: 403,
    'zh-CN': 'API 密钥不能调用此接口（远程终端、需二次验证的操作、员工与集成管理、个人账号）',
    'en-US': 'Not allowed for API keys (shell, actions that need a step-up, staff and integration management, personal account)',
  },
  API_KEY_SCOPE: { code: 49002, http: 403, 'zh-CN': 'API 密钥缺少权限范围 {scope}', 'en-US': 'The API key lacks the scope {scope}' },
  API_KEY_RATE_LIMITED: { code: 49003, http: 429, 'zh-CN': 'API 密钥调用过于频繁，请稍后再试', 'en-US': 'Too many calls with this API key; try again shortly' },
  API_KEY_EXPIRY_PAST: { code: 49004, http: 400, 'zh-CN': '过期时间必须晚于现在', 'en-US': 'The expiry must be in the future' },
  WEBHOOK_URL_REFUSED: {
    code: 49005,
    http: 400,
    'zh-CN': 'Webhook 地址被拒绝：{reason}',
    'en-US': 'Webhook URL refused: {reason}',
  },
  GROUP_NOT_FOUND: { code: 49040, http: 404, 'zh-CN': '设备分组不存在', 'en-US': 'Device group not found' },
  GROUP_NAME_TAKEN: { code: 49041, http: 409, 'zh-CN': '分组名称“{name}”已存在', 'en-US': 'A group named "{name}" already exists' },
  GROUP_FILTER_ALL: { code: 49042, http: 400, 'zh-CN': '筛选条件为空，将匹配全部设备；如确需全部设备，请设置 all: true', 'en-US': 'The filter has no condition and would match every device; set all: true if that is meant' },
  GROUP_KIND_MISMATCH: { code: 49043, http: 400, 'zh-CN': '静态分组只有成员列表（sns），动态分组只有筛选条件（filter）', 'en-US': 'A static group has a member list (sns), a dynamic group a filter: not the other' },
  GROUP_IN_USE: { code: 49044, http: 409, 'zh-CN': '分组“{name}”正被进行中的升级任务“{campaign}”使用，无法删除', 'en-US': 'Group "{name}" is used by the running campaign "{campaign}" and cannot be deleted' },
  TAGS_TARGET_REQUIRED: { code: 49045, http: 400, 'zh-CN': '请指定设备（sns 或 filter 二选一）以及要设置或删除的标签', 'en-US': 'Name the devices (either sns or filter) and at least one tag to set or remove' },
  TAGS_SET_AND_REMOVED: { code: 49046, http: 400, 'zh-CN': '标签 {key} 不能同时设置和删除', 'en-US': 'Tag {key} cannot be both set and removed' },
} as const satisfies Record<string, ErrorDef>;

export type ErrorKey = keyof typeof errors;
export type ErrorParams = Record<string, string | number>;

export function errorMessage(key: ErrorKey, locale: Locale = defaultLocale, params: ErrorParams = {}): string {
  const template: string = errors[key][locale];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * The schemas' own rule messages (the `detail` of a VALIDATION answer) in both languages, so a
 * refused field reads in the caller's language. A message not listed here is passed on as written.
 */
export const validationMessages: Record<string, Localized> = {
  'semantic version': { 'zh-CN': '须为语义化版本号，例如 1.4.2', 'en-US': 'must be a semantic version such as 1.4.2' },
  'lower-case letters, digits and dashes': { 'zh-CN': '只能包含小写字母、数字和短横线', 'en-US': 'only lower-case letters, digits and dashes' },
  'upper-case letters, digits and dashes, 4–32 characters': { 'zh-CN': '须为 4–32 位大写字母、数字和短横线', 'en-US': 'must be 4–32 upper-case letters, digits and dashes' },
  'language such as zh-CN or en-US': { 'zh-CN': '须为语言代码，例如 zh-CN 或 en-US', 'en-US': 'must be a language such as zh-CN or en-US' },
};

export function validationMessage(message: string, locale: Locale = defaultLocale): string {
  return validationMessages[message]?.[locale] ?? message;
}

const byCode = new Map<number, ErrorKey>(Object.entries(errors).map(([key, def]) => [def.code, key as ErrorKey]));
export function errorKeyOf(code: number): ErrorKey | undefined {
  return byCode.get(code);
}
