// Which Node the service runs on, checked before anything starts. The HTTP edge is uWebSockets.js,
// a native addon built per Node ABI; the build in use (`@trufflesuite/uws-js-unofficial` 20.30)
// ships binaries for Node 16, 18 and 20 only. On any other Node its loader prints a warning and
// falls back to a JavaScript shim that crashes once the first listener is set up (after the
// embedded PostgreSQL has started). This check loads the native binary itself and refuses to
// start without it, in one line that names the Node needed and why (k8s/README.md, "Node runtime").
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The Node release line the service supports (package.json `engines` and `devEngines` say the same). */
export const SUPPORTED_NODE = 'Node 20 (20.19 or later)';

const WHY =
  'its HTTP server, uWebSockets.js (@trufflesuite/uws-js-unofficial 20.30), ships native builds for Node 16, 18 and 20 only ' +
  'and on any other Node falls back to a JavaScript shim that crashes; Node 20 is past its end of life (April 2026), ' +
  'the plan to move is in k8s/README.md, "Node runtime"';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Null when the native uWebSockets.js build loads and is the module the edge imports; else the
 * line to print. Loads the addon the edge would load anyway, so it costs no more than a require.
 */
export function edgeRuntimeProblem(env: NodeJS.ProcessEnv = process.env): string | null {
  const running = `Node ${process.version} (ABI ${process.versions.modules}, ${process.platform}-${process.arch})`;
  if (/^(1|true)$/i.test(env.UWS_USE_FALLBACK ?? '')) {
    return `UWS_USE_FALLBACK is set: the service runs only on uWebSockets.js's native build, never its JavaScript fallback; unset it. It needs ${SUPPORTED_NODE}: ${WHY}.`;
  }
  const dir = dirname(require.resolve('uWebSockets.js/package.json'));
  const binary = join(dir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  let native: unknown;
  try {
    native = require(binary);
  } catch (error) {
    const reason = oneLine(String((error as Error).message ?? error)).split(' Require stack:')[0]!.slice(0, 200);
    return `schedule-backend needs ${SUPPORTED_NODE}, not ${running}: ${WHY}. (${reason})`;
  }
  // The loader requires the same file, so the module the edge imports is this very object.
  if (require('uWebSockets.js') !== native) {
    return `schedule-backend loaded uWebSockets.js's JavaScript fallback instead of its native build on ${running}; it needs ${SUPPORTED_NODE}: ${WHY}.`;
  }
  return null;
}
