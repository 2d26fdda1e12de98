import axios, { AxiosError, type AxiosInstance } from 'axios';
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '@mockyard/contracts';
import { DependencyError } from '../domain/hub-errors';

/** The traffic-logger's `GET /api/requests` filters (see services/traffic-logger), all optional. */
export const TrafficSearchSchema = z.object({
  page: z.number().int().min(0).optional(),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  method: z.string().optional(),
  status: z.number().int().min(100).max(599).optional(),
  statusClass: z.enum(['1xx', '2xx', '3xx', '4xx', '5xx']).optional(),
  host: z.string().optional(),
  url: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  minDurationMs: z.number().int().min(0).optional(),
  source: z.enum(['proxy', 'forward', 'tunnel', 'engine']).optional(),
});
export type TrafficSearch = z.infer<typeof TrafficSearchSchema>;

const TrafficPageSchema = z.looseObject({
  content: z.array(z.looseObject({})),
  totalElements: z.number(),
});

/** Reads the traffic-logger's `GET /api/requests` (Spring-style page envelope) for the MCP search tool. */
export class TrafficLogClient {
  private readonly http: AxiosInstance;

  constructor(
    private readonly baseUrl: string,
    timeoutMs: number,
    /** The logger's traffic.security.api-key (hub.logger-api-key), sent as X-Api-Key when set. */
    apiKey?: string,
  ) {
    const headers = apiKey ? { 'X-Api-Key': apiKey } : {};
    this.http = axios.create({ baseURL: baseUrl.replace(/\/+$/, ''), timeout: timeoutMs, headers, validateStatus: () => true });
  }

  async searchRequests(search: TrafficSearch): Promise<z.infer<typeof TrafficPageSchema>> {
    let res;
    try {
      res = await this.http.get('/api/requests', { params: search });
    } catch (err) {
      const reason = err instanceof AxiosError ? (err.code ?? err.message) : String(err);
      throw new DependencyError('traffic-logger', `the traffic logger at ${this.baseUrl} is unreachable: ${reason}`);
    }
    if (res.status === 401) throw new DependencyError('traffic-logger', 'the traffic logger refused the hub\'s key: set hub.logger-api-key (TRAFFIC_API_KEY) to its traffic.security.api-key');
    if (res.status !== 200) throw new DependencyError('traffic-logger', `the traffic logger answered ${res.status} to GET /api/requests: ${JSON.stringify(res.data).slice(0, 300)}`);
    const page = TrafficPageSchema.safeParse(res.data);
    if (!page.success) throw new DependencyError('traffic-logger', 'the traffic logger sent a page the hub cannot read');
    return page.data;
  }
}
