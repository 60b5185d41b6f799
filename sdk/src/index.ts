// The schedule calendar API's client: `createClient({ baseUrl })`, then reads, admin writes with
// files, a live subscription and a month that keeps itself current.
export { createClient, formOf, type Client, type ClientOptions, type FileInput, type MonthListing, type SearchResults, type ScheduleItem, type Schemas, type Success } from './client.js';
export { ApiError } from './errors.js';
export type { FetchLike, RequestOptions, RetryOptions } from './http.js';
export type { ChangeMessage, LiveClient, LiveHandlers, LiveOptions, LiveStatus, Subscription, WebSocketConstructor, WebSocketLike } from './live.js';
export { applyChange, followMonth, type FollowedMonth, type FollowMonthHandlers } from './month.js';
export type { components, operations, paths } from './openapi.js';
