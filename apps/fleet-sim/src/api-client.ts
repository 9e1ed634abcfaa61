/** The few admin API calls the simulator makes, with the platform's envelope unwrapped. */
export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private token: string | undefined,
  ) {}

  /** The staff token in use (after `signIn`, or the one given). */
  get accessToken(): string | undefined {
    return this.token;
  }

  async signIn(username: string, password: string): Promise<void> {
    const data = await this.call<{ access_token: string }>('POST', '/api/admin/user/login', { username, password });
    this.token = data.access_token;
  }

  async call<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const headers: Record<string, string> = { 'accept-language': 'en-US', 'user-agent': 'mowerline-fleet-sim' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = contentType;
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let envelope: { code: number; msg: string; data: T };
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      throw new Error(`${method} ${path}: HTTP ${res.status} without a JSON envelope`);
    }
    if (envelope.code !== 0) throw Object.assign(new Error(`${method} ${path}: ${envelope.msg} (${envelope.code})`), { code: envelope.code, data: envelope.data });
    return envelope.data;
  }
}
