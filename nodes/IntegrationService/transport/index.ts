/**
 * The transport's public surface: every request of the node and the trigger goes through
 * `serviceRequest` (one request) or `serviceRequestPages` (a list, page by page).
 */
export type { ServiceContext } from './attempt';
export type { PageRequest, PagingResult } from './paging';
export { MAX_PAGE_SIZE, MAX_RECORDS, recordsOf, serviceRequestPages } from './paging';
export type { Connection, ServiceRequest } from './request';
export { CREDENTIAL_DEFAULT, serviceRequest } from './request';
export type { RequestSettings, ServiceRun } from './run';
export { DEFAULT_SETTINGS, newRun, redactRunError, startItem, stopRun } from './run';
export { INPUT_NEXT_STEP } from './errors';
export { MAX_CURSOR_LENGTH } from './cursor';
