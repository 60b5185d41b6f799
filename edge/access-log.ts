// The access log (docs/operations.md, "Logs"): one info line per answer with the route template,
// never the path or query (a verification token, a search). Successful answers of cacheable routes
// are sampled (ACCESS_LOG), and so are a client network's 4xx and 5xx lines past their rates
// (client-error-log.ts). Metrics count every answer whatever is logged (answers.ts, `observe`).
import type { Logger } from '../shared/runtime/logger.ts';
import { ClientErrorLog } from './client-error-log.ts';
import type { Context } from './context.ts';
import type { Route } from './router.ts';

export interface AccessLogOptions {
  /**
   * Every answer, except successful answers of cacheable routes, of which one in N is logged (with
   * `sampled: N`); 1 = every answer; 0 (the default) = none.
   */
  accessLogEvery?: number;
  /** 4xx lines written in full per client network and minute (ClientErrorLog); unset = every one. */
  accessLog4xxPerMinute?: number;
  /** 5xx lines written in full per client network and minute (ClientErrorLog); unset = every one. */
  accessLog5xxPerMinute?: number;
}

export function createAccessLog(logger: Logger, options: AccessLogOptions) {
  const accessLogEvery = logger.isLevelEnabled('info') ? options.accessLogEvery ?? 0 : 0;
  let answered = 0;
  // A client's 4xx and 5xx lines past a small rate are sampled, except with ACCESS_LOG=all.
  const sampler = (perMinute: number | undefined) => (accessLogEvery > 1 && perMinute !== undefined ? new ClientErrorLog(perMinute) : null);
  const clientErrors = sampler(options.accessLog4xxPerMinute);
  const serverErrors = sampler(options.accessLog5xxPerMinute);
  return {
    /**
     * Whether this answer may get a line (asked before it is written). Measured
     * (test/bench/calendar.bench.ts, wrk): a line for each cached month answer cost 60% of its rate
     * (49.2k → 20.1k req/s); they are sampled, everything else is logged.
     */
    logged: (route: Route | null, status: number) =>
      accessLogEvery === 1 || (accessLogEvery > 1 && (route?.cacheControl === undefined || status >= 400 || ++answered % accessLogEvery === 0)),
    accessLog: (ctx: Context, route: Route | null, status: number, bytes: number, startedAt: number, client: string | undefined) => {
      let sampled = accessLogEvery > 1 && route?.cacheControl !== undefined && status < 400 ? accessLogEvery : undefined;
      const errors = status >= 500 ? serverErrors : status >= 400 ? clientErrors : null;
      if (errors !== null) {
        const standsFor = errors.admit(client);
        if (standsFor === 0) return;
        if (standsFor > 1) sampled = standsFor;
      }
      logger.info({ method: ctx.method.toUpperCase(), route: route?.path ?? null, status, bytes, ms: Math.round((performance.now() - startedAt) * 100) / 100, requestId: ctx.requestId, client, sampled }, 'request');
    },
  };
}
