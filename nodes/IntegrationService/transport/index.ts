/**
 * The transport's public surface: every request of the node and the trigger goes through
 * `serviceRequest` (one request) or `serviceRequestPages` (a list, page by page).
 */
export type { ServiceContext } from './attempt';
export type { PageRequest, PagingResult } from './paging';
export { MAX_PAGE_SIZE, MAX_RECORDS, recordsOf, serviceRequestPages } from './paging';
export type { RequestSettings, ServiceRequest, ServiceRun } from './request';
export { DEFAULT_SETTINGS, newRun, serviceRequest, stopRun } from './request';
