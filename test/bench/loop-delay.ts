// The event-loop delay the benchmarks print, from node:perf_hooks' monitor, in milliseconds.
// Two properties of that monitor shape this helper (measured on this machine, Node 20):
// - it records the whole period between its timer's runs, not the lateness: an idle loop reads
//   about 1.1 ms at a 1 ms resolution and 10.2 ms at 10 ms. The resolution is taken off here.
// - its timer costs CPU: 41 ms a second at a 1 ms resolution, 9 ms at 10 ms (an idle process, by
//   hand). A benchmark that measures what the cores give (logins against bcrypt, uploads against
//   sharp) would pay its own monitor out of the work it measures, so they sample every 10 ms.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export const LOOP_RESOLUTION_MS = 10;

export interface LoopDelay {
  enable(): void;
  disable(): void;
  reset(): void;
  /** The delay at percentile `p`, in ms, beyond the monitor's own period. */
  percentile(p: number): number;
  /** The longest delay seen, in ms. */
  max(): number;
}

export function loopDelay(resolutionMs = LOOP_RESOLUTION_MS): LoopDelay {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: resolutionMs });
  const beyond = (ns: number) => Math.max(0, ns / 1e6 - resolutionMs);
  return {
    enable: () => void histogram.enable(),
    disable: () => void histogram.disable(),
    reset: () => histogram.reset(),
    percentile: (p) => beyond(histogram.percentile(p)),
    max: () => beyond(histogram.max),
  };
}
