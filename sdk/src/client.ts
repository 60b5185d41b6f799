// createClient: the API's calls by area, typed by the generated document (openapi.ts).
import type { components, operations } from './openapi.js';
import { request, type FetchLike, type RequestOptions, type RetryOptions, type Transport } from './http.js';
import { createLive, type LiveClient, type LiveOptions } from './live.js';

export type Schemas = components['schemas'];
export type ScheduleItem = Schemas['ScheduleItem'];
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
/** The JSON body of an operation's success answer. */
export type Success<Name extends keyof operations> = operations[Name] extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201>]> : never;
type QueryOf<Name extends keyof operations> = operations[Name] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Listing = Success<'getApiSchedules'>;
export type MonthListing = Extract<Listing, { year: number }>;
export type SearchResults = Exclude<Listing, { year: number }>;

/** A file to upload: a Blob or File (browsers), or bytes (a Node Buffer is a Uint8Array). */
export type FileInput = Blob | Uint8Array | ArrayBuffer | { data: Blob | Uint8Array | ArrayBuffer; name?: string; type?: string };

export interface ClientOptions {
  /** Where the API is, e.g. `https://calendar.example.org`. */
  baseUrl: string;
  /** A token from `login` or `auth.login`; both set it themselves. */
  token?: string;
  /** Defaults to the global fetch (Node 20, browsers). */
  fetch?: FetchLike;
  /** Retries of 429/503 for requests that are safe to repeat. */
  retry?: RetryOptions;
  /** The live stream's transport and reconnect settings. */
  live?: LiveOptions;
}

function blobOf(file: FileInput, index: number): { blob: Blob; name: string } {
  const named = typeof file === 'object' && 'data' in file && !(file instanceof Blob) ? file : { data: file };
  const { data } = named;
  const type = named.type ?? (data instanceof Blob ? data.type : '') ?? '';
  const blob = data instanceof Blob && !named.type ? data : new Blob([data as ArrayBuffer], type ? { type } : {});
  const ownName = (data as { name?: unknown }).name;
  return { blob, name: named.name ?? (typeof ownName === 'string' ? ownName : `file-${index + 1}`) };
}

/**
 * The multipart body the server reads: the JSON as a `payload` part of type application/json
 * (as the document's encoding says), then each file under `field`.
 */
export function formOf(payload: unknown, field: string, files: readonly FileInput[] = []): FormData {
  const form = new FormData();
  if (payload !== undefined) form.append('payload', new Blob([JSON.stringify(payload)], { type: 'application/json' }), 'payload.json');
  files.forEach((file, index) => {
    const { blob, name } = blobOf(file, index);
    form.append(field, blob, name);
  });
  return form;
}

/** JSON when there are no files (smaller, no multipart parsing), multipart when there are. */
const bodyOf = (payload: unknown, field: string, files?: readonly FileInput[]): RequestOptions => (files?.length ? { form: formOf(payload, field, files) } : { json: payload });

export function createClient(options: ClientOptions) {
  const transport: Transport = {
    baseUrl: options.baseUrl,
    token: options.token,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retry: { attempts: 3, baseDelayMs: 500, maxDelayMs: 30_000, ...options.retry },
  };
  const call = <T>(method: string, path: string, requestOptions?: RequestOptions) => request<T>(transport, method, path, requestOptions);
  const id = (value: number | string) => encodeURIComponent(String(value));

  const schedules = {
    /** The month's listing (birthdays included), in the server's order. */
    month: (year: number, month: number, o?: RequestOptions) => call<MonthListing>('GET', '/api/schedules', { ...o, query: { year, month } }),
    search: (query: string, searchOptions: { offset?: number; limit?: number } = {}, o?: RequestOptions) =>
      call<SearchResults>('GET', '/api/schedules', { ...o, query: { search: query, ...searchOptions } }),
    get: (scheduleId: number | string, o?: RequestOptions) => call<Success<'getApiSchedulesById'>>('GET', `/api/schedules/${id(scheduleId)}`, o),
    suggestions: (q: string, query: Omit<QueryOf<'getApiSchedulesSuggestions'>, 'q'> = {}, o?: RequestOptions) =>
      call<Success<'getApiSchedulesSuggestions'>>('GET', '/api/schedules/suggestions', { ...o, query: { q, ...query } }),
    popular: (o?: RequestOptions) => call<Success<'getApiSchedulesSuggestionsPopular'>>('GET', '/api/schedules/suggestions/popular', o),
    categories: (o?: RequestOptions) => call<Success<'getApiScheduleCategories'>>('GET', '/api/schedule-categories', o),
    /** Administrator: create a schedule, with images (poster files) in order. */
    create: (payload: Schemas['ScheduleCreatePayload'], files: { images?: readonly FileInput[] } = {}, o?: RequestOptions) =>
      call<Success<'postApiSchedules'>>('POST', '/api/schedules', { ...o, ...bodyOf(payload, 'files', files.images) }),
    /** Administrator: replace a schedule (PUT: fields not sent are cleared); new images follow keepImageIds. */
    update: (scheduleId: number, payload: Schemas['ScheduleUpdatePayload'], files: { images?: readonly FileInput[] } = {}, o?: RequestOptions) =>
      call<Success<'putApiSchedulesById'>>('PUT', `/api/schedules/${id(scheduleId)}`, { ...o, ...bodyOf(payload, 'files', files.images) }),
    remove: (scheduleId: number, o?: RequestOptions) => call<Success<'deleteApiSchedulesById'>>('DELETE', `/api/schedules/${id(scheduleId)}`, o),
  };

  const events = {
    get: (eventId: number, o?: RequestOptions) => call<Success<'getApiAdminEventsById'>>('GET', `/api/admin/events/${id(eventId)}`, o),
    create: (payload: Schemas['EventCreatePayload'], files: { posters?: readonly FileInput[] } = {}, o?: RequestOptions) =>
      call<Success<'postApiAdminEvents'>>('POST', '/api/admin/events', { ...o, ...bodyOf(payload, 'posters', files.posters) }),
    update: (eventId: number, payload: Schemas['EventUpdatePayload'], files: { posters?: readonly FileInput[] } = {}, o?: RequestOptions) =>
      call<Success<'putApiAdminEventsById'>>('PUT', `/api/admin/events/${id(eventId)}`, { ...o, ...bodyOf(payload, 'posters', files.posters) }),
    remove: (eventId: number, o?: RequestOptions) => call<Success<'deleteApiAdminEventsById'>>('DELETE', `/api/admin/events/${id(eventId)}`, o),
  };

  const members = {
    list: (o?: RequestOptions) => call<Success<'getApiMembers'>>('GET', '/api/members', o),
    get: (name: string, o?: RequestOptions) => call<Success<'getApiMembersByName'>>('GET', `/api/members/${id(name)}`, o),
  };

  const albums = {
    list: (o?: RequestOptions) => call<Success<'getApiAlbums'>>('GET', '/api/albums', o),
    get: (albumId: number, o?: RequestOptions) => call<Success<'getApiAlbumsById'>>('GET', `/api/albums/${id(albumId)}`, o),
    byName: (name: string, o?: RequestOptions) => call<Success<'getApiAlbumsByNameByName'>>('GET', `/api/albums/by-name/${id(name)}`, o),
  };

  /** A fan's account (/auth): register, verify by the mailed link, log in (sets the token), me, refresh, logout. */
  const auth = {
    register: (email: string, password: string, o?: RequestOptions) => call<Success<'postAuthRegister'>>('POST', '/auth/register', { ...o, json: { email, password } }),
    login: async (email: string, password: string, o?: RequestOptions) => {
      const answer = await call<Success<'postAuthLogin'>>('POST', '/auth/login', { ...o, json: { email, password } });
      transport.token = answer.token;
      return answer;
    },
    me: (o?: RequestOptions) => call<Success<'getAuthMe'>>('GET', '/auth/me', o),
    refresh: async (o?: RequestOptions) => {
      const answer = await call<Success<'postAuthRefresh'>>('POST', '/auth/refresh', o);
      if (answer.refreshed) transport.token = answer.token;
      return answer;
    },
    logout: async (o?: RequestOptions) => {
      const answer = await call<Success<'postAuthLogout'>>('POST', '/auth/logout', o);
      transport.token = undefined;
      return answer;
    },
  };

  return {
    get token() {
      return transport.token;
    },
    set token(value: string | undefined) {
      transport.token = value;
    },
    baseUrl: options.baseUrl,
    /** An administrator's login: the token is kept for the admin calls that follow. */
    login: async (username: string, password: string, o?: RequestOptions) => {
      const answer = await call<Success<'postApiAuthLogin'>>('POST', '/api/auth/login', { ...o, json: { username, password } });
      transport.token = answer.token;
      return answer;
    },
    auth,
    schedules,
    events,
    members,
    albums,
    live: createLive(transport, options.live) as LiveClient,
    /** Any other operation of the document: JSON in, JSON out, the same errors and retries. */
    request: call,
  };
}

export type Client = ReturnType<typeof createClient>;
