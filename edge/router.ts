// A small path router: static segments win over `:param` segments, a trailing slash is ignored,
// parameters are percent-decoded (Hangul and spaces in member and album names).
import type { TSchema } from '@sinclair/typebox';
import { badRequest } from '../shared/errors.ts';
import type { Context, Reply } from './context.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteDoc {
  summary: string;
  tags: string[];
  description?: string;
  query?: TSchema;
  /** JSON body schema, or the schema of the multipart `payload` part (named by its `$id`). */
  body?: TSchema;
  /**
   * Multipart request: file parts documented by name. `json`: the payload may also come alone as
   * an `application/json` body (no files); `payloadOptional`: the `payload` part may be left out.
   */
  multipart?: { files: string; json?: true; payloadOptional?: true };
  /** Path parameters that are not ids: an `id` or `…Id` parameter is a positive integer unless named here. */
  params?: Record<string, TSchema>;
  responses: Record<number, TSchema | string>;
  /** A user token the route reads (admin routes say `auth: 'admin'` on the route). */
  security?: 'user' | 'user-optional';
  /** The body of a 2xx response documented by a string: its media type and schema (default: any bytes). */
  content?: { type: string; schema?: TSchema };
  /** A versioned resource (shared/precondition.ts): `read`, its 200 carries the ETag; `write`, If-Match and 412. */
  versioned?: 'read' | 'write';
}

export interface Route {
  method: Method;
  path: string;
  handler: (ctx: Context) => Promise<Reply> | Reply;
  /** `admin`: the administrator token check runs before the handler (decisions.md). */
  auth?: 'admin';
  /** Largest accepted body in bytes; 413 past it. */
  bodyLimit?: number;
  /** Public GET: strong ETag, `If-None-Match` → 304, and this Cache-Control value. */
  cacheControl?: string;
  /** Answers stored files: the edge reads `Range` (a cacheable route reads few headers otherwise). */
  files?: true;
  doc: RouteDoc;
}

interface Node {
  statics: Map<string, Node>;
  param: { name: string; node: Node } | null;
  /** `*name`: the rest of the path, still percent-encoded (file paths under /storage). */
  rest: { name: string; node: Node } | null;
  routes: Map<Method, Route>;
}

const newNode = (): Node => ({ statics: new Map(), param: null, rest: null, routes: new Map() });

export type Match = { route: Route; params: Record<string, string> } | { allowed: Method[] } | null;

export function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

export class Router {
  private readonly root = newNode();
  private readonly all: Route[] = [];
  /**
   * Routes without parameters by method, then by path with and without its trailing slash: the
   * common case is two Map lookups on the strings uWS gives, with no string built per request.
   */
  private readonly exact = new Map<string, Map<string, Route>>();

  add(...routes: Route[]): void {
    for (const route of routes) {
      let node = this.root;
      for (const segment of splitPath(route.path)) {
        if (segment.startsWith('*')) {
          node.rest ??= { name: segment.slice(1), node: newNode() };
          node = node.rest.node;
        } else if (segment.startsWith(':')) {
          const name = segment.slice(1);
          if (node.param && node.param.name !== name) throw new Error(`conflicting parameter names at ${route.path}`);
          node.param ??= { name, node: newNode() };
          node = node.param.node;
        } else {
          let next = node.statics.get(segment);
          if (!next) node.statics.set(segment, (next = newNode()));
          node = next;
        }
      }
      if (node.routes.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
      node.routes.set(route.method, route);
      if (!/[:*]/.test(route.path)) {
        let paths = this.exact.get(route.method);
        if (!paths) this.exact.set(route.method, (paths = new Map()));
        const path = `/${splitPath(route.path).join('/')}`;
        paths.set(path, route);
        if (path !== '/') paths.set(`${path}/`, route);
      }
      this.all.push(route);
    }
  }

  routes(): readonly Route[] {
    return this.all;
  }

  match(method: Method, path: string): Match {
    const fixed = this.exact.get(method)?.get(path);
    if (fixed) return { route: fixed, params: {} };
    const segments = splitPath(path);
    const params: Record<string, string> = {};
    const rest: Record<string, string> = {};
    const node = this.walk(this.root, segments, 0, params, rest);
    if (!node) return null;
    const route = node.routes.get(method);
    if (route) {
      for (const key of Object.keys(params)) params[key] = decodeSegment(params[key]!);
      return { route, params: { ...params, ...rest } };
    }
    return { allowed: [...node.routes.keys()] };
  }

  /** Every method routed at the path (CORS preflight), or null when no route has the path. */
  methodsAt(path: string): Method[] | null {
    const node = this.walk(this.root, splitPath(path), 0, {}, {});
    return node ? [...node.routes.keys()] : null;
  }

  private walk(node: Node, segments: string[], index: number, params: Record<string, string>, rest: Record<string, string>): Node | null {
    if (index === segments.length) return node.routes.size > 0 ? node : null;
    const segment = segments[index]!;
    const fixed = node.statics.get(segment);
    if (fixed) {
      const found = this.walk(fixed, segments, index + 1, params, rest);
      if (found) return found;
    }
    if (node.param) {
      const found = this.walk(node.param.node, segments, index + 1, params, rest);
      if (found) {
        params[node.param.name] = segment;
        return found;
      }
    }
    if (node.rest && node.rest.node.routes.size > 0) {
      rest[node.rest.name] = segments.slice(index).join('/');
      return node.rest.node;
    }
    return null;
  }
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

function decodeSegment(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment).normalize('NFC');
  } catch {
    throw badRequest('경로에 잘못된 문자 인코딩이 있습니다.', 'invalid_path');
  }
  if (CONTROL_CHARACTER.test(decoded)) throw badRequest('경로에 제어 문자가 있습니다.', 'invalid_path');
  return decoded;
}

/**
 * A query string whose percent-escapes do not decode (`%E0%A4%A`, `100%`) is refused like such a
 * path, on every route, instead of reaching a handler as replacement characters (or being ignored
 * by one that reads no query). Checked only when the query holds a `%`.
 */
export function checkQueryString(raw: string): void {
  if (!raw.includes('%')) return;
  try {
    decodeURIComponent(raw);
  } catch {
    throw badRequest('쿼리 문자열에 잘못된 문자 인코딩이 있습니다.', 'invalid_query');
  }
}
