import { forwardRequest } from '../../../lib/server/forward-request';
import { readUpstreams } from '../../../lib/server/upstreams';

export const dynamic = 'force-dynamic';

/** The hub's open health endpoint (`/actuator/health`, engine component included). */
export function GET(request: Request): Promise<Response> {
  return forwardRequest(request, `${readUpstreams().hubUrl}/actuator/health`);
}
