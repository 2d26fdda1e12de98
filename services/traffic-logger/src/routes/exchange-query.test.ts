import { RequestsQuerySchema, toExchangeFilter } from './exchange-query';

describe('RequestsQuerySchema', () => {
  it('defaults page to 0 and size to 20', () => {
    expect(RequestsQuerySchema.parse({})).toMatchObject({ page: 0, size: 20 });
  });

  it.each([
    [{ page: '2', size: '50' }, { page: 2, size: 50 }],
    [{ page: '', size: '' }, { page: 0, size: 20 }],
    [{ size: '200' }, { size: 200 }],
    [{ method: 'post' }, { method: 'POST' }],
    [{ method: 'PROPFIND' }, { method: 'PROPFIND' }],
    [{ method: 'connect' }, { method: 'CONNECT' }],
    [{ status: '404' }, { status: 404 }],
    [{ statusClass: '5XX' }, { statusClass: 5 }],
    [{ host: 'API.Example.test' }, { host: 'api.example.test' }],
    [{ from: '2026-11-22T10:00:00Z' }, { from: new Date('2026-11-22T10:00:00Z') }],
    [{ from: '2026-11-22' }, { from: new Date('2026-11-22T00:00:00Z') }],
    // no offset: UTC, whatever the server's time zone
    [{ from: '2026-11-22T10:00:00' }, { from: new Date('2026-11-22T10:00:00Z') }],
    [{ from: '2026-11-22T10:00:00.250+01:00' }, { from: new Date('2026-11-22T09:00:00.250Z') }],
    // ±hhmm and ±hh offsets (ISO 8601), and a `+` that the query string turned into a space
    [{ from: '2026-11-22T10:00:00-0230' }, { from: new Date('2026-11-22T12:30:00Z') }],
    [{ from: '2026-11-22T10:00+01' }, { from: new Date('2026-11-22T09:00:00Z') }],
    [{ from: '2026-11-22T10:00:00 01:00' }, { from: new Date('2026-11-22T09:00:00Z') }],
    [{ to: '2028-02-29T23:59:59-0530' }, { to: new Date('2028-03-01T05:29:59Z') }],
    [{ minDurationMs: '250' }, { minDurationMs: 250 }],
    [{ source: 'forward' }, { source: 'forward' }],
  ])('accepts %j', (query, expected) => {
    expect(RequestsQuerySchema.parse(query)).toMatchObject(expected);
  });

  it.each([
    [{ page: '-1' }, 'page must be between 0 and 1000000'],
    [{ page: '1000001' }, 'page must be between 0 and 1000000'],
    [{ page: 'abc' }, 'page must be an integer'],
    [{ page: '1.5' }, 'page must be an integer'],
    [{ size: '0' }, 'size must be between 1 and 200'],
    [{ size: '201' }, 'size must be between 1 and 200'],
    [{ status: 'abc' }, 'status must be an integer'],
    [{ status: '42' }, 'status must be an HTTP status code (100-599)'],
    [{ method: 'FETCH' }, 'method must be an HTTP method'],
    [{ method: 'G E T' }, 'method must be an HTTP method'],
    [{ method: ['GET', 'POST'] }, 'method must be given once'],
    [{ statusClass: '6xx' }, 'statusClass must be one of'],
    [{ from: 'yesterday' }, 'from must be an ISO 8601 date-time'],
    // days and times that do not exist are refused, not rolled over into the next (a wider DELETE)
    [{ from: '2026-02-30' }, 'from must be an ISO 8601 date-time that exists'],
    [{ to: '2026-11-31T10:00:00Z' }, 'to must be an ISO 8601 date-time that exists'],
    [{ to: '2026-11-22T24:00:00Z' }, 'to must be an ISO 8601 date-time that exists'],
    [{ from: '2027-02-29' }, 'from must be an ISO 8601 date-time that exists'],
    [{ from: '2026-11-22T10:00:00+25:00' }, 'from must be an ISO 8601 date-time that exists'],
    [{ from: '2026-11-22T10:00:00Zjunk' }, 'from must be an ISO 8601 date-time that exists'],
    [{ from: '2026-11-22T10:00:00+1' }, 'from must be an ISO 8601 date-time that exists'],
    [{ from: '2026-11-22T10:00:00 24' }, 'from must be an ISO 8601 date-time that exists'],
    [{ source: 'carrier-pigeon' }, 'source must be one of'],
    [{ stauts: '500' }, 'Unrecognized key: "stauts"'],
  ])('rejects %j', (query, message) => {
    const result = RequestsQuerySchema.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message).join('\n')).toContain(message);
  });
});

describe('toExchangeFilter', () => {
  it('keeps only the filters given', () => {
    const q = RequestsQuerySchema.parse({ method: 'get', status: '200', url: 'orders' });
    expect(toExchangeFilter(q)).toEqual({ method: 'GET', status: 200, urlContains: 'orders' });
  });
});
