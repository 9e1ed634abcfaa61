import { randomBytes } from 'node:crypto';
import type { AppTicket, AppTicketDetail, TaskRun } from '@mowerline/contract';
import { feedbackAboutFault, feedbackAboutSomethingElse, followUp, type NewFeedback } from './feedback.ts';
import { places } from './places.ts';
import { createRng, pick } from './rng.ts';
import { SecretsStore } from './secrets-store.ts';

/**
 * Mower owners playing the company's mobile app against the platform's real app API
 * (`/api/app/v1`): they sign up, get confirmed by support (the console's confirm action, as when a
 * verification mail never arrives), bind their mowers with the label's pairing code, share some,
 * sign in now and then and edit their profiles. When a mower of theirs stops with a fault, its
 * owner often writes to support from the app (with a screenshot), answers support's questions and
 * rates the resolution.
 */

export interface AppUserPlan {
  email: string;
  name: string;
  country: string;
  timeZone: string;
  locale: 'zh-CN' | 'en-US';
  /** Where they live: next to their first mower. */
  home: { lat: number; lng: number };
  owns: string[];
  /** SNs someone else owns and shares with them. */
  sharedWithMe: string[];
}

const FIRST = ['Anna', 'Lars', 'Mia', 'Jonas', 'Emma', 'Noah', 'Sofia', 'Lukas', 'Yuki', 'Min', 'Wei', 'Li', 'Chloé', 'Marco', 'Eva', 'Hana'];
const LAST = ['Berg', 'Nielsen', 'Müller', 'de Vries', 'Smith', 'Martin', 'Rossi', 'Huber', 'Sato', 'Kim', 'Chen', 'Wang', 'Lin', 'Tan'];

/**
 * Owners for a fleet: 1–3 neighbouring mowers each (same city), living where their mowers are;
 * every third owner shares a mower with the previous owner of the same city.
 */
export function planAppUsers(gardens: Array<{ sn: string; city: string; lat: number; lng: number }>, seed: number, domain = 'owners.mowerline.test'): AppUserPlan[] {
  const rng = createRng(seed * 31 + 7);
  const byCity = new Map<string, typeof gardens>();
  for (const g of gardens) byCity.set(g.city, [...(byCity.get(g.city) ?? []), g]);
  const users: AppUserPlan[] = [];
  for (const [city, list] of byCity) {
    const place = places.find((p) => p.city === city)!;
    let previous: AppUserPlan | undefined;
    for (let i = 0; i < list.length; ) {
      const n = Math.min(list.length - i, 1 + Math.floor(rng() * 3));
      const owned = list.slice(i, i + n);
      i += n;
      const first = pick(rng, FIRST);
      const last = pick(rng, LAST);
      const user: AppUserPlan = {
        email: `${first}.${last}.${owned[0]!.sn}@${domain}`.toLowerCase().normalize('NFD').replace(/[^a-z0-9.@-]/g, ''),
        name: `${first} ${last}`,
        country: place.country,
        timeZone: place.timeZone,
        locale: place.locale,
        home: { lat: owned[0]!.lat, lng: owned[0]!.lng },
        owns: owned.map((g) => g.sn),
        sharedWithMe: [],
      };
      if (previous && users.length % 3 === 2) user.sharedWithMe.push(previous.owns[0]!);
      users.push(user);
      previous = user;
    }
  }
  return users;
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    msg: string,
  ) {
    super(msg);
  }
}

/** Waits `ms`, or less if `signal` aborts (then rejects with its reason). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });
}

/** What the app sends about itself with every call (the feedback records it). */
const APP_HEADERS = { 'user-agent': 'mowerline-fleet-sim (app user)', 'x-app-version': '3.4.1', 'x-app-os': 'Android 15' };

async function call<T>(baseUrl: string, method: string, path: string, opts: { token?: string; body?: unknown; form?: FormData; locale?: string; signal?: AbortSignal } = {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const headers: Record<string, string> = { 'accept-language': opts.locale ?? 'en-US', ...APP_HEADERS };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    // FormData sets its own multipart content type with the boundary.
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const body = opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const res = await fetch(new URL(path, baseUrl), { method, headers, body, signal: opts.signal });
    // The app API limits sign-ups and sign-ins per address; a whole demo comes from one.
    if (res.status === 429 && attempt < 10) {
      const wait = Number(res.headers.get('retry-after') ?? '30');
      await sleep(Math.min(Math.max(wait, 1), 60) * 1000, opts.signal);
      continue;
    }
    const envelope = (await res.json()) as Envelope<T>;
    if (envelope.code !== 0) throw new HttpError(res.status, envelope.code, `${method} ${path}: ${envelope.msg} (${envelope.code})`);
    return envelope.data;
  }
}

const END_USER_STATE = 44011;

/** What a sign-up sends (the app's register form). */
export interface AppSignUp {
  email: string;
  password: string;
  name: string;
  country: string;
  locale: 'zh-CN' | 'en-US';
  timeZone: string;
}

/** One owner and their app session. */
export class AppUserSim {
  private token: string | undefined;
  private refreshToken: string | undefined;
  id: number | undefined;

  constructor(
    readonly plan: AppUserPlan,
    private readonly baseUrl: string,
    private readonly password: string,
    /** Aborts every request of this owner when the simulation stops. */
    private readonly signal?: AbortSignal,
    /** Signs up some other way than the public form (answers the account's id); see AppUsersOptions.signUp. */
    private readonly signUp?: (account: AppSignUp) => Promise<number>,
  ) {}

  private api<T>(method: string, path: string, body?: unknown, token = this.token) {
    return call<T>(this.baseUrl, method, path, { body, token, locale: this.plan.locale, signal: this.signal });
  }

  /**
   * Signs up; an account that exists already (an earlier run) is fine: the form answers it like a
   * new one. The form's answer names no account, so support finds it by its e-mail (confirmWith).
   */
  async register(): Promise<void> {
    const account: AppSignUp = {
      email: this.plan.email,
      password: this.password,
      name: this.plan.name,
      country: this.plan.country,
      locale: this.plan.locale,
      timeZone: this.plan.timeZone,
    };
    if (this.signUp) this.id = await this.signUp(account);
    else await this.api('POST', '/api/app/v1/user/register', account);
  }

  /** Support confirms the account (staff token); an already active account is fine. */
  async confirmWith(adminToken: string): Promise<void> {
    if (this.id === undefined) {
      const page = await this.api<{ list: Array<{ id: number; email: string }> }>('GET', `/api/admin/end-user?keyword=${encodeURIComponent(this.plan.email)}`, undefined, adminToken);
      this.id = page.list.find((u) => u.email === this.plan.email)?.id;
    }
    if (this.id === undefined) return;
    try {
      await this.api('POST', `/api/admin/end-user/${this.id}/confirm`, undefined, adminToken);
    } catch (err) {
      if (!(err instanceof HttpError && err.code === END_USER_STATE)) throw err;
    }
  }

  async signIn(): Promise<void> {
    const t = await this.api<{ access_token: string; refresh_token: string }>('POST', '/api/app/v1/user/login', { email: this.plan.email, password: this.password });
    this.token = t.access_token;
    this.refreshToken = t.refresh_token;
  }

  /** Renews the access token with the refresh token, or signs in again. */
  async refresh(): Promise<void> {
    try {
      if (!this.refreshToken) throw new Error('no session');
      const t = await this.api<{ access_token: string; refresh_token: string }>('POST', '/api/app/v1/user/refresh', { refresh_token: this.refreshToken });
      this.token = t.access_token;
      this.refreshToken = t.refresh_token;
    } catch {
      await this.signIn();
    }
  }

  /** Binds each owned mower with its label's code; already owned by this user is fine. */
  async bindAll(pairingCodes: Map<string, string>): Promise<number> {
    const mine = new Set((await this.api<Array<{ sn: string; role: string }>>('GET', '/api/app/v1/devices')).filter((d) => d.role === 'owner').map((d) => d.sn));
    let bound = 0;
    for (const sn of this.plan.owns) {
      const code = pairingCodes.get(sn);
      if (mine.has(sn) || !code) continue;
      await this.api('POST', '/api/app/v1/devices/bind', { sn, pairingCode: code });
      bound++;
    }
    // Profile: where they live (the server codes country and city from the coordinates).
    await this.api('PUT', '/api/app/v1/user/profile', { home: this.plan.home });
    return bound;
  }

  async shareWith(email: string, sn: string): Promise<void> {
    await this.api('POST', `/api/app/v1/devices/${sn}/share`, { email });
  }

  /**
   * Every owned mower gets a schedule if it has none: four two-hour slots a day (with the
   * simulator's task clock at 60×, a slot passes in two real minutes).
   */
  async ensureSchedules(): Promise<number> {
    let created = 0;
    for (const sn of this.plan.owns) {
      const existing = await this.api<unknown[]>('GET', `/api/app/v1/devices/${sn}/schedules`);
      if (existing.length > 0) continue;
      const slots = [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => [4, 9, 14, 19].map((h) => ({ weekday, start: `${String(h).padStart(2, '0')}:00`, end: `${String(h + 2).padStart(2, '0')}:00` })));
      await this.api('POST', `/api/app/v1/devices/${sn}/schedules`, { name: 'Every day', slots, zones: [], cutting: { heightMm: 45, pattern: 'stripes', edgeCut: true } });
      created++;
    }
    return created;
  }

  /**
   * Opens an item of the app's content through the real app API. Popularity is skewed: the list is
   * newest first and the pick is drawn towards its head (rng³), so a few items get most of the
   * opens and a newly published one climbs the popular list.
   */
  async readContent(rng: () => number): Promise<void> {
    const page = await this.api<{ list: Array<{ id: number }> }>('GET', '/api/app/v1/content?pageSize=50');
    if (page.list.length === 0) return;
    const item = page.list[Math.floor(rng() ** 3 * page.list.length)]!;
    await this.api('GET', `/api/app/v1/content/${item.id}`);
  }

  /** Now and then an owner adds a short extra run for one zone (an overlap is refused, as in the app). */
  async addSchedule(rng: () => number): Promise<void> {
    const sn = this.plan.owns[Math.floor(rng() * this.plan.owns.length)];
    if (!sn) return;
    const weekday = 1 + Math.floor(rng() * 7);
    const hour = String(Math.floor(rng() * 23)).padStart(2, '0');
    await this.api('POST', `/api/app/v1/devices/${sn}/schedules`, {
      name: `Extra ${weekday}-${hour}`,
      slots: [{ weekday, start: `${hour}:00`, end: `${hour}:45` }],
      zones: [rng() < 0.5 ? 'front' : 'back'],
      cutting: { heightMm: 35 + Math.floor(rng() * 30), pattern: 'auto', edgeCut: rng() < 0.5 },
    });
  }

  /**
   * "Mow now" from the app on the first mower already bound to this account; the run's id, or null
   * while none is bound yet (binding runs in the background at start).
   */
  async startMowing(durationMin = 30): Promise<string | null> {
    const [device] = await this.api<Array<{ sn: string }>>('GET', '/api/app/v1/devices');
    if (!device) return null;
    const started = await this.api<{ runId: string | null }>('POST', `/api/app/v1/devices/${device.sn}/task/start`, { zones: [], durationMin });
    return started.runId;
  }

  async checkDevices(): Promise<void> {
    await this.api('GET', '/api/app/v1/devices');
  }

  async editProfile(rng: () => number): Promise<void> {
    const phone = `+${Math.floor(10 + rng() * 89)} ${Math.floor(100_000_000 + rng() * 899_999_999)}`;
    await this.api('PUT', '/api/app/v1/user/profile', rng() < 0.5 ? { phone } : { name: this.plan.name, phone });
  }

  /**
   * Writes to support: about the latest fault one of their mowers really had (unless a ticket about
   * that mower was filed since), or now and then about something else.
   */
  async fileFeedback(rng: () => number): Promise<AppTicketDetail | undefined> {
    const tickets = await this.api<{ list: AppTicket[] }>('GET', '/api/app/v1/feedback?pageSize=50');
    let feedback: NewFeedback | undefined;
    // Only mowers already bound to this account (binding runs in the background at start).
    const bound = new Set((await this.api<Array<{ sn: string }>>('GET', '/api/app/v1/devices')).map((d) => d.sn));
    for (const sn of this.plan.owns.filter((owned) => bound.has(owned))) {
      const runs = await this.api<TaskRun[]>('GET', `/api/app/v1/devices/${sn}/runs?limit=10`);
      const faulted = runs.find((r) => r.faultCode && Date.now() - Date.parse(r.startedAt) < 6 * 3600_000);
      if (!faulted) continue;
      const reported = tickets.list.some((t) => t.sn === sn && Date.parse(t.createdAt) >= Date.parse(faulted.startedAt));
      if (!reported) {
        feedback = feedbackAboutFault(rng, this.plan.locale, faulted);
        break;
      }
    }
    if (!feedback && rng() < 0.15) feedback = feedbackAboutSomethingElse(rng, this.plan.locale);
    if (!feedback) return undefined;
    const form = new FormData();
    form.set('category', feedback.category);
    form.set('title', feedback.title);
    form.set('description', feedback.description);
    if (feedback.sn) form.set('sn', feedback.sn);
    if (feedback.screenshot) form.append('file', new Blob([new Uint8Array(feedback.screenshot)], { type: 'image/png' }), 'screenshot.png');
    return call<AppTicketDetail>(this.baseUrl, 'POST', '/api/app/v1/feedback', { form, token: this.token, locale: this.plan.locale, signal: this.signal });
  }

  /** Answers support's questions and rates resolved tickets. */
  async followUpFeedback(rng: () => number): Promise<number> {
    const tickets = await this.api<{ list: AppTicket[] }>('GET', '/api/app/v1/feedback?pageSize=50');
    let done = 0;
    for (const t of tickets.list) {
      const next = followUp(rng, this.plan.locale, t);
      if (next.kind === 'reply') await this.api('POST', `/api/app/v1/feedback/${t.id}/reply`, { body: next.body });
      else if (next.kind === 'rate') await this.api('POST', `/api/app/v1/feedback/${t.id}/rating`, { score: next.score, comment: next.comment });
      else continue;
      done++;
    }
    return done;
  }

  async signOut(): Promise<void> {
    if (this.token) await this.api('POST', '/api/app/v1/user/logout');
    this.token = undefined;
    this.refreshToken = undefined;
  }
}

export interface AppUsersOptions {
  apiUrl: string;
  gardens: Array<{ sn: string; city: string; lat: number; lng: number }>;
  pairingCodes: Map<string, string>;
  /** A staff token allowed to confirm accounts (support's confirm action). */
  adminToken?: string;
  /**
   * Creates the accounts without the public sign-up form: the server's own demo passes its account
   * service here, so its owners do not use up the form's per-address limits of the host they run on.
   */
  signUp?: (account: AppSignUp) => Promise<number>;
  /** Keeps the owners' shared password between runs (JSON, mode 0600). */
  secretsFile?: string;
  seed?: number;
  /** Mean seconds between one owner's visits to the app (sign-in, look, sometimes edit). */
  visitEverySeconds?: number;
  log?: (line: string) => void;
}

export interface AppUsers {
  readonly users: AppUserSim[];
  /** Stops visiting, aborts requests in flight (a rate-limit back-off included) and waits for them. */
  stop(): Promise<void>;
}

/**
 * Signs the owners up and has support confirm them (awaited: needs the staff token), then, in the
 * background, binds, shares, and keeps visiting the app now and then.
 */
export async function startAppUsers(opts: AppUsersOptions): Promise<AppUsers> {
  const log = opts.log ?? (() => {});
  const store = new SecretsStore(opts.secretsFile);
  let password = store.get('@app-users');
  if (!password) {
    password = `Aa1#${randomBytes(12).toString('base64url')}`;
    store.set('@app-users', password);
    store.save();
  }
  const plans = planAppUsers(opts.gardens, opts.seed ?? 1);
  const abort = new AbortController();
  const users = plans.map((p) => new AppUserSim(p, opts.apiUrl, password, abort.signal, opts.signUp));
  for (const u of users) await u.register();
  if (opts.adminToken) for (const u of users) await u.confirmWith(opts.adminToken);
  log(`app users: ${users.length} owners signed up`);

  let stopped = false;
  let visiting: Promise<unknown> = Promise.resolve();
  const rng = createRng((opts.seed ?? 1) * 131);
  const timers: NodeJS.Timeout[] = [];
  const setup = (async () => {
    let bound = 0;
    for (const u of users) {
      if (stopped) return;
      try {
        await u.signIn();
        bound += await u.bindAll(opts.pairingCodes);
      } catch (err) {
        log(`app user ${u.plan.email}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    for (const u of users) {
      for (const sn of u.plan.sharedWithMe) {
        const owner = users.find((o) => o.plan.owns.includes(sn));
        await owner?.shareWith(u.plan.email, sn).catch(() => {});
      }
    }
    log(`app users: ${bound} mowers bound`);
    let scheduled = 0;
    for (const u of users) scheduled += await u.ensureSchedules().catch((err: unknown) => (log(`app user ${u.plan.email}: ${err instanceof Error ? err.message : String(err)}`), 0));
    log(`app users: ${scheduled} schedules created`);
  })();

  const visitMs = (opts.visitEverySeconds ?? 600) * 1000;
  const visit = () => {
    if (stopped || users.length === 0) return;
    const u = users[Math.floor(rng() * users.length)]!;
    const roll = rng();
    const work =
      roll < 0.2
        ? u.signOut().then(() => u.signIn())
        : roll < 0.45
          ? u.refresh().then(() => u.checkDevices())
          : roll < 0.6
            ? u.refresh().then(() => u.readContent(rng))
            : roll < 0.67
              ? u.refresh().then(() => u.addSchedule(rng))
              : roll < 0.72
                ? u.refresh().then(() => u.editProfile(rng))
                : roll < 0.88
                  ? u.refresh().then(() => u.fileFeedback(rng))
                  : u.refresh().then(() => u.followUpFeedback(rng));
    visiting = work.catch((err: unknown) => {
      if (!stopped) log(`app user ${u.plan.email}: ${err instanceof Error ? err.message : String(err)}`);
    });
    timers[0] = setTimeout(visit, (visitMs / users.length) * (0.5 + rng()));
  };
  void setup.then(() => {
    timers[0] = setTimeout(visit, 1000);
  });

  return {
    users,
    async stop() {
      stopped = true;
      timers.forEach(clearTimeout);
      abort.abort(new Error('app users stopped'));
      await Promise.allSettled([setup, visiting]);
    },
  };
}
